/**
 * Staff sessions: each sign-in is a session its owner sees (how, from where, when) and ends; an admin ends
 * another's; ending one stops its token at once and is audited; a new role signs the account out; no answer
 * carries a token or its hash.
 */
import { api, type StaffSessionsData, type StaffView } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../services/tokens.js';
import { body } from '../test/app.js';
import { auditEntriesOf } from '../test/auditLog.js';
import { freshPhone, sendCall } from '../test/callWorld.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';

const PASSWORD = 'password-1';
const BROWSER_A =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const BROWSER_B =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

describe.each(await testedDialects())('staff sessions on %s', (dialect) => {
  const s = adminApp(dialect, { seed: false });

  const create = async (role: StaffView['role']) => {
    const phone = freshPhone('133');
    const res = await sendCall(
      s.t,
      api.staffCreate,
      { body: { phone, area_code: '86', name: `S ${role}`, role, password: PASSWORD } },
      s.admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    return { ...body<StaffView>(res).data, phone };
  };
  const signIn = async (phone: string, userAgent: string, ip = '203.0.113.7') => {
    const res = await s.t.app.inject({
      method: 'POST',
      url: '/api/admin/auth/login',
      payload: { phone, password: PASSWORD },
      headers: { 'user-agent': userAgent, 'x-forwarded-for': ip },
      remoteAddress: ip,
    });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ token: string }>(res).data.token;
  };
  const mine = async (token: string) => {
    const res = await sendCall(s.t, api.staffSessions, {}, token);
    expect(res.statusCode, res.body).toBe(200);
    return { list: body<StaffSessionsData>(res).data.list, raw: res.body };
  };
  const me = async (token: string) => (await sendCall(s.t, api.staffMe, {}, token)).statusCode;

  it('lists each sign-in with how, where and when, the current one marked, and never a token or its hash', async () => {
    const author = await create('author');
    const first = await signIn(author.phone, BROWSER_A);
    s.t.advance(1_000);
    const second = await signIn(author.phone, BROWSER_B, '198.51.100.4');
    const { list, raw } = await mine(second);
    // The audit log records each sign-in by its method, as single sign-on's.
    const logins = await auditEntriesOf(s.t, 'staff.login', author.id);
    expect(logins.map((e) => JSON.parse(e.after!))).toEqual([{ method: 'local' }, { method: 'local' }]);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ method: 'local', user_agent: BROWSER_B, current: true });
    expect(list[1]).toMatchObject({ method: 'local', user_agent: BROWSER_A, current: false });
    for (const session of list) {
      expect(session.ip).toMatch(/^[\d.:a-f]+$/);
      expect(session.created_at).toBeGreaterThanOrEqual(s.t.now() - 1_000);
      expect(session.last_seen_at).toBe(session.created_at);
      expect(session.expires_at).toBeGreaterThan(s.t.now());
      expect(session.session).toMatch(/^[\w-]{16}$/);
    }
    for (const token of [first, second]) {
      expect(raw).not.toContain(token);
      expect(raw).not.toContain(hashToken(token));
    }
    // The other session sees the same two, itself marked.
    expect((await mine(first)).list.map((x) => x.current)).toEqual([false, true]);
  });

  it('ends one of its own sessions from another: that token stops at once, this one goes on, the log says so', async () => {
    const author = await create('author');
    const laptop = await signIn(author.phone, BROWSER_A);
    const phone = await signIn(author.phone, BROWSER_B);
    const other = (await mine(laptop)).list.find((x) => !x.current)!;
    const ended = await sendCall(s.t, api.staffSessionEnd, { body: { session: other.session } }, laptop);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await me(phone)).toBe(401);
    expect(await me(laptop)).toBe(200);
    expect((await mine(laptop)).list).toHaveLength(1);
    const entries = await auditEntriesOf(s.t, 'staff.session_end');
    expect(entries.some((e) => e.object_id === author.id && e.actor_id === author.id)).toBe(true);
    // Nothing left to end: the same id again, and one never issued.
    for (const sessionId of [other.session, 'no-such-session-id']) {
      const again = await sendCall(s.t, api.staffSessionEnd, { body: { session: sessionId } }, laptop);
      expect([again.statusCode, body(again).code]).toEqual([404, 'not_found']);
    }
    // Ending the current one is signing out.
    const self = (await mine(laptop)).list[0]!;
    await sendCall(s.t, api.staffSessionEnd, { body: { session: self.session } }, laptop);
    expect(await me(laptop)).toBe(401);
  });

  it("cannot end another account's session through its own calls, and only an admin sees and ends another's", async () => {
    const grader = await create('grader');
    const author = await create('author');
    const graderToken = await signIn(grader.phone, BROWSER_A);
    const authorToken = await signIn(author.phone, BROWSER_B);
    const graderSession = (await mine(graderToken)).list[0]!;
    // The author's own-session call does not reach the grader's session.
    const wrong = await sendCall(s.t, api.staffSessionEnd, { body: { session: graderSession.session } }, authorToken);
    expect([wrong.statusCode, body(wrong).code]).toEqual([404, 'not_found']);
    expect(await me(graderToken)).toBe(200);
    // Nor may an author use an admin's calls.
    const peek = await sendCall(s.t, api.staffSessionsOf, { query: { id: grader.id } }, authorToken);
    expect(peek.statusCode).toBe(403);

    const seen = await sendCall(s.t, api.staffSessionsOf, { query: { id: grader.id } }, s.admin);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(body<StaffSessionsData>(seen).data.list).toEqual([{ ...graderSession, current: false }]);
    const end = await sendCall(
      s.t,
      api.staffSessionEndOf,
      { body: { id: grader.id, session: graderSession.session } },
      s.admin,
    );
    expect(end.statusCode, end.body).toBe(200);
    expect(await me(graderToken)).toBe(401);
    const entries = await auditEntriesOf(s.t, 'staff.session_end');
    expect(entries.some((e) => e.object_id === grader.id && e.actor_id !== grader.id)).toBe(true);
  });

  it('notes a session in use at most every five minutes, and a new role or team ends every session', async () => {
    const proctor = await create('proctor');
    const token = await signIn(proctor.phone, BROWSER_A);
    const signedInAt = s.t.now();
    s.t.advance(60_000);
    await me(token);
    expect((await mine(token)).list[0]!.last_seen_at).toBe(signedInAt);
    s.t.advance(5 * 60_000);
    await me(token);
    expect((await mine(token)).list[0]!.last_seen_at).toBe(s.t.now());

    const res = await sendCall(s.t, api.staffUpdate, { body: { id: proctor.id, role: 'grader' } }, s.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(await me(token)).toBe(401);
    const seen = await sendCall(s.t, api.staffSessionsOf, { query: { id: proctor.id } }, s.admin);
    expect(body<StaffSessionsData>(seen).data.list).toEqual([]);
  });
});
