/**
 * The audit log over the whole route list: every staff call that changes something (every non-GET staff call
 * but login and logout) leaves exactly one entry naming the actor, the action and the object, with the
 * object before (null for a create) and after (null for a delete), and never a password or token. Inputs
 * and expectations come from AUDIT_FIXTURES (test/auditFixtures.ts). Then the console's list: filters,
 * sorting and paging.
 */
import { api, type AuditAction, type AuditListData, type CallDef } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import type { AuditObject } from '../services/audit.js';
import { body } from '../test/app.js';
import { auditEntriesSince, lastAuditId } from '../test/auditLog.js';
import { sendCall, worldApp } from '../test/callWorld.js';
import { AUDIT_FIXTURES } from '../test/auditFixtures.js';
import { testedDialects } from '../test/db.js';

/** Calls that change no console object: a session starts or ends. */
const NOT_AUDITED: ReadonlySet<string> = new Set(['staffLogin', 'staffLogout']);

const mutatingCalls = (Object.entries(api) as [keyof typeof api, CallDef][]).filter(
  ([name, c]) => c.auth === 'staff' && c.method !== 'GET' && !NOT_AUDITED.has(name),
);

describe.each(await testedDialects())('the audit log on %s', (dialect) => {
  const w = worldApp(dialect, { env: { FACE_WORKERS: '1' } });

  const lastId = () => lastAuditId(w.t);

  it.each(mutatingCalls)(
    '%s leaves exactly one entry with the actor, the object, before and after',
    async (name, c) => {
      const fixture = AUDIT_FIXTURES[name];
      if (!fixture) {
        throw new Error(
          `${name} changes something but has no audit fixture: add AUDIT_FIXTURES.${name} in ` +
            'packages/server/src/test/auditFixtures.ts (a valid input and the entry it must leave)',
        );
      }
      const change = await fixture(w);
      const who = change.as ?? 'admin';
      const since = await lastId();
      const res = await sendCall(w.t, c, change.input, w.tokens[who]);
      expect(res.statusCode, `${name}: ${res.body.slice(0, 400)}`).toBe(200);
      await change.settle?.(body<Record<string, unknown>>(res).data);
      const entries = await auditEntriesSince(w.t, since);
      expect(
        entries.map((e) => e.action),
        `${name} must leave exactly one entry`,
      ).toHaveLength(1);
      const [entry] = entries;
      const want = change.expect;
      const data = body<Record<string, unknown>>(res).data;
      expect(entry).toMatchObject({
        actor_kind: 'staff',
        actor_id: w.ids[who],
        action: want.action,
        object_kind: want.kind,
        object_id: typeof want.id === 'function' ? want.id(data) : want.id,
      });
      expect(entry!.actor_name).not.toBe('');
      for (const [side, expected] of [
        ['before', want.before],
        ['after', want.after],
      ] as const) {
        const stored = entry![side];
        if (expected === null) {
          expect(stored, `${name}: ${side} should be null`).toBeNull();
        } else {
          expect(stored, `${name}: ${side} should be a snapshot`).not.toBeNull();
          expect(JSON.parse(stored!), `${name}: ${side}`).toMatchObject(expected);
        }
        // Secrets never reach the log: no password (or its hash) and no token.
        expect(stored ?? '').not.toMatch(/argon2|password|token/i);
      }
    },
  );

  it('every audit fixture names a mutating staff call', () => {
    const names = new Set<string>(mutatingCalls.map(([n]) => n));
    for (const name of Object.keys(AUDIT_FIXTURES))
      expect(names.has(name), `${name} is not a mutating staff call`).toBe(true);
  });

  it('lists entries with filters by actor, action, object and time, sorted and paged, for admins only', async () => {
    const admin = (await w.t.services.staff.resolve(w.tokens.admin))!;
    const author = (await w.t.services.staff.resolve(w.tokens.authorA))!;
    // Entries at known times: three by the admin on one team, two by the author on another object.
    const base = w.t.now() + 3_600_000;
    w.t.advance(3_600_000);
    const record = async (who: typeof admin, action: AuditAction, object: AuditObject, times: number) => {
      for (let i = 0; i < times; i++) {
        w.t.advance(1_000);
        await w.t.services.audit.record(who, action, object, { n: i }, { n: i + 1 });
      }
    };
    await record(admin, 'team.update', { kind: 'team', id: w.otherTeamId }, 3);
    await record(author, 'exam.save_draft', { kind: 'exam', id: w.examId }, 2);
    const list = async (query: Record<string, string | number>, token = w.tokens.admin) => {
      const res = await sendCall(w.t, api.auditList, { query }, token);
      expect(res.statusCode, res.body).toBe(200);
      return body<AuditListData>(res).data;
    };

    const byAuthor = await list({ actor_id: w.ids.authorA, from: base });
    expect(byAuthor.total).toBe(2);
    expect(byAuthor.list.map((e) => [e.actor_name, e.action, e.object_kind, e.object_id])).toEqual([
      ['Author A', 'exam.save_draft', 'exam', w.examId],
      ['Author A', 'exam.save_draft', 'exam', w.examId],
    ]);
    // Newest first by default, with the snapshots parsed.
    expect(byAuthor.list.map((e) => e.after)).toEqual([{ n: 2 }, { n: 1 }]);

    const team = await list({ object_kind: 'team', object_id: w.otherTeamId, from: base });
    expect(team.total).toBe(3);
    expect((await list({ action: 'team.update', from: base })).total).toBe(3);
    // An action ending with '.' is a prefix; '%' and '_' are not wildcards.
    expect((await list({ action: 'exam.', from: base })).total).toBe(2);
    expect((await list({ action: 'exa%', from: base })).total).toBe(0);
    // Time window: [from, to).
    expect((await list({ from: base + 2_000, to: base + 4_000 })).total).toBe(2);

    // Paging over the five, oldest first: pages do not overlap and cover everything.
    const page1 = await list({ from: base, order: 'asc', page_size: 2, page: 1 });
    const page2 = await list({ from: base, order: 'asc', page_size: 2, page: 2 });
    const page3 = await list({ from: base, order: 'asc', page_size: 2, page: 3 });
    expect([page1.total, page1.list.length, page2.list.length, page3.list.length]).toEqual([5, 2, 2, 1]);
    const times = [...page1.list, ...page2.list, ...page3.list].map((e) => e.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set([...page1.list, ...page2.list, ...page3.list].map((e) => e.id)).size).toBe(5);

    // Sorted by actor name: Administrator before Author A.
    const byActor = await list({ from: base, sort: 'actor', order: 'asc' });
    expect(byActor.list.map((e) => e.actor_name)).toEqual([
      'Administrator',
      'Administrator',
      'Administrator',
      'Author A',
      'Author A',
    ]);

    // Bad input is a validation error, never a 500; only admins read the log.
    const bad = await sendCall(w.t, api.auditList, { query: { page_size: 1000 } }, w.tokens.admin);
    expect([bad.statusCode, body(bad).code]).toEqual([422, 'validation_error']);
    const badSort = await sendCall(w.t, api.auditList, { query: { sort: 'password' } }, w.tokens.admin);
    expect(badSort.statusCode).toBe(422);
    const refused = await sendCall(w.t, api.auditList, { query: {} }, w.tokens.authorA);
    expect([refused.statusCode, body(refused).code]).toEqual([403, 'forbidden']);
  });
});
