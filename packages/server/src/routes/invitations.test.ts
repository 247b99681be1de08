import {
  api,
  DEFAULT_INVITATION_TEMPLATE,
  formatServerTime,
  SMS_LIMITS,
  type BulkInviteResult,
  type ExamSmsData,
  type ResendData,
  type RevokeData,
  type SmsListData,
} from '@examhall/contract';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_MS } from '../services/smsDispatch.js';
import { body } from '../test/app.js';
import { lastAuditEntry } from '../test/auditLog.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';
import { enterExam } from '../test/checks.js';
import { waitForJob } from '../test/jobs.js';

/** A resend's or bulk invitation's count of texts held back per budget, when none was. */
const noneHeld = Object.fromEntries(SMS_LIMITS.map((l) => [l, 0]));

/** Phones 1370000xxxx, n of them. */
const phones = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ area_code: '86', phone: `1370000${String(from + i).padStart(4, '0')}` }));

describe.each(await testedDialects())('invitations by SMS on %s', (dialect) => {
  const s = adminApp(dialect);

  const call = async (c: (typeof api)[keyof typeof api], payload: Record<string, unknown>, token = s.admin) => {
    const res = await s.t.app.inject({
      method: c.method,
      url: `/api${c.path}`,
      headers: { authorization: `Bearer ${token}` },
      ...(c.method === 'GET'
        ? { query: Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)])) }
        : { payload }),
    });
    return { http: res.statusCode, ...body(res) };
  };
  const texts = async (filter: Record<string, unknown> = {}) =>
    (await call(api.smsList, { exam_id: s.examId, page_size: 200, ...filter })).data as SmsListData;
  /** Sends everything due, run after run, as the periodic task would. */
  const sendAll = async () => {
    while ((await s.t.services.smsDispatch.dispatch(60_000)) > 0);
  };

  beforeEach(() => {
    s.t.sms.messages.length = 0;
    s.t.sms.failing = false;
  });

  it('invites many phones and candidates in one job, texts each new invitation once, and again nobody', async () => {
    const known = await s.t.db.handle.db
      .insertInto('candidates')
      .values({ area_code: '86', phone: '13600000001', name: '李四', created_at: s.t.now(), last_login_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    // An id that names no candidate is refused before any job starts, like every id a staff call names.
    const unknown = await call(api.invitationsBulk, { exam_id: s.examId, candidate_ids: [known.id, 999_999] });
    expect([unknown.http, unknown.code]).toEqual([404, 'not_found']);
    const started = await call(api.invitationsBulk, {
      exam_id: s.examId,
      phones: phones(600),
      candidate_ids: [known.id],
    });
    expect(started.http).toBe(200);
    const job = await waitForJob(s.t, s.admin, (started.data as { job_id: number }).job_id);
    expect(job.state).toBe('done');
    expect(job.result as BulkInviteResult).toEqual({
      created: 601,
      existing: 0,
      queued: 601,
      held: 0,
      held_by: noneHeld,
      unknown_candidates: [],
    });
    expect(job.progress).toMatchObject({ done: 601, total: 601 });

    await sendAll();
    const received = s.t.sms.messages.filter((m) => m.purpose === 'invitation');
    expect(received).toHaveLength(601);
    expect(new Set(received.map((m) => m.phone)).size).toBe(601);
    const named = received.find((m) => m.phone === '13600000001')!;
    const anid = (
      await s.t.db.handle.db
        .selectFrom('invitations')
        .select('id')
        .where('exam_id', '=', s.examId)
        .where('phone', '=', '13600000001')
        .executeTakeFirstOrThrow()
    ).id;
    expect(named.text).toContain('李四您好');
    expect(named.text).toContain(`${s.t.config.publicUrl}/exam/${s.examId}/${anid}`);
    expect(named.message_id).toMatch(/^examhall-sms-\d+$/);
    expect((await texts({ state: 'sent' })).counts).toMatchObject({ sent: 601, queued: 0, failed: 0 });

    // The same list again: every phone is invited already, nobody gets a second text.
    const again = await call(api.invitationsBulk, { exam_id: s.examId, phones: phones(600) });
    const second = await waitForJob(s.t, s.admin, (again.data as { job_id: number }).job_id);
    expect(second.result).toMatchObject({ created: 0, existing: 600, queued: 0 });
    await sendAll();
    expect(s.t.sms.messages.filter((m) => m.purpose === 'invitation')).toHaveLength(601);
  });

  it('paces texts to the configured rate: one run of a period sends at most rate x period', async () => {
    await call(api.examEditorInvite, { exam_id: s.examId, phones: phones(8, 1000) });
    // SMS_RATE defaults to 50 a second: a 100 ms period allows 5.
    expect(await s.t.services.smsDispatch.dispatch(100)).toBe(5);
    expect(s.t.sms.messages).toHaveLength(5);
    expect(await s.t.services.smsDispatch.dispatch(100)).toBe(3);
  });

  it('retries a refused text later, records each refusal, and lists it as failed after the last try', async () => {
    await call(api.examEditorInvite, { exam_id: s.examId, phones: phones(1, 2000) });
    s.t.sms.failing = true;
    await s.t.services.smsDispatch.dispatch(1000);
    let entry = (await texts({ phone: '13700002000' })).list[0]!;
    expect(entry).toMatchObject({ state: 'queued', tries: 1, last_error: 'SMS webhook answered 500' });
    expect(entry.next_try_at).toBe(s.t.now() + RETRY_DELAYS_MS[0]!);
    // Not before its time.
    expect(await s.t.services.smsDispatch.dispatch(1000)).toBe(0);
    for (const delay of RETRY_DELAYS_MS) {
      s.t.advance(delay);
      await s.t.services.smsDispatch.dispatch(1000);
    }
    entry = (await texts({ phone: '13700002000' })).list[0]!;
    expect(entry).toMatchObject({ state: 'failed', tries: RETRY_DELAYS_MS.length + 1 });
    expect((await texts({ state: 'failed' })).list.map((e) => e.phone)).toContain('13700002000');
    // A resend after the gateway recovers goes through.
    s.t.sms.failing = false;
    const resent = await call(api.invitationsResend, { exam_id: s.examId, anids: [entry.anid] });
    expect(resent.data as ResendData).toEqual({ queued: 1, held: 0, held_by: noneHeld, skipped: [] });
    await sendAll();
    expect(s.t.sms.messages.map((m) => [m.phone, m.purpose])).toEqual([['13700002000', 'resend']]);
  });

  it('sends a text again under the same id when its sender died before settling it', async () => {
    await call(api.examEditorInvite, { exam_id: s.examId, phones: phones(1, 3000) });
    const repo = (await import('../repositories/invitations.js')).InvitationRepository;
    // A sender takes it and dies: the text stays 'sending' under a lease.
    const [taken] = await new repo(s.t.db.handle.db).claimDue(s.t.now(), 10, s.t.now() + 60_000);
    expect(taken?.phone).toBe('13700003000');
    expect(await s.t.services.smsDispatch.dispatch(1000)).toBe(0);
    s.t.advance(60_001);
    expect(await s.t.services.smsDispatch.dispatch(1000)).toBe(1);
    expect(s.t.sms.messages).toEqual([expect.objectContaining({ message_id: `examhall-sms-${taken!.id}` })]);
  });

  it('revokes invitations not yet started: the candidate no longer sees the exam, queued texts are cancelled', async () => {
    const invited = await call(api.examEditorInvite, { exam_id: s.examId, phones: phones(2, 4000) });
    const [a, b] = (invited.data as { list: { anid: number }[] }).list.map((l) => l.anid);
    // The second candidate starts.
    const token = await s.t.loginCandidate('13700004001');
    await enterExam(s.t, token, s.examId, b!);
    const res = await call(api.invitationsRevoke, { exam_id: s.examId, anids: [a, b], reason: '重复报名' });
    expect(res.data as RevokeData).toEqual({ revoked: [a], skipped: [b] });
    expect((await texts({ phone: '13700004000' })).list[0]).toMatchObject({ state: 'cancelled' });
    await sendAll();
    expect(s.t.sms.messages.map((m) => m.phone)).not.toContain('13700004000');

    const revokedToken = await s.t.loginCandidate('13700004000');
    const list = await s.t.app.inject({ method: 'GET', url: `/api/exam/list?auth=${revokedToken}` });
    expect(JSON.stringify(body(list).data)).not.toContain(`"anid":${a}`);
    const detail = await s.t.app.inject({
      method: 'GET',
      url: `/api/exam/show?id=${s.examId}&anid=${a}&auth=${revokedToken}`,
    });
    expect(body(detail).msg).toBe('failed to get exam detail');
    // Resending a revoked invitation sends nothing.
    expect((await call(api.invitationsResend, { exam_id: s.examId, anids: [a] })).data).toEqual({
      queued: 0,
      held: 0,
      held_by: noneHeld,
      skipped: [a],
    });
    const audit = await lastAuditEntry(s.t, 'exam.invite_revoke');
    expect(audit.detail).toBe('重复报名');
    // The console's invitation list shows which are revoked.
    const listed = (await call(api.scheduleInvitations, { exam_id: s.examId, phone: '1370000400' })).data as {
      list: { id: number; revoked_at: number | null }[];
    };
    expect(listed.list.find((i) => i.id === a)?.revoked_at).toBe(s.t.now());
    expect(listed.list.find((i) => i.id === b)?.revoked_at).toBeNull();
  });

  it("keeps each exam's texts: defaults, checked templates, and the saved one used for the next text", async () => {
    const initial = (await call(api.examSms, { exam_id: s.examId })).data as ExamSmsData;
    expect(initial).toMatchObject({ is_default: true, invitation_template: DEFAULT_INVITATION_TEMPLATE });
    // An invitation template naming an unknown field, or with no link, is refused naming the problem.
    for (const [invitation_template, problem] of [
      ['{nmae} 请参加', 'unknown:nmae'],
      ['{name}请参加', 'no_link'],
    ]) {
      const refused = await call(api.examSmsSave, {
        exam_id: s.examId,
        invitation_template,
        reminder_template: '{link}',
        reminder_minutes: [60],
      });
      expect(refused.http, invitation_template).toBe(422);
      expect(JSON.stringify(refused)).toContain(problem);
    }
    const saved = await call(api.examSmsSave, {
      exam_id: s.examId,
      invitation_template: '请参加{exam}：{link}',
      reminder_template: '{exam}就要开始了：{link}',
      reminder_minutes: [30, 120],
    });
    expect(saved.data).toMatchObject({ is_default: false, reminder_minutes: [120, 30] });
    await call(api.examEditorInvite, { exam_id: s.examId, phones: phones(1, 5000) });
    await sendAll();
    expect(s.t.sms.messages[0]!.text).toMatch(/^请参加.+：http/);
  });

  it("queues reminders by each candidate's own window, once per reminder time, none on top of a fresh invitation", async () => {
    const exam = await s.t.db.handle.db
      .selectFrom('exams')
      .selectAll()
      .where('id', '=', s.examId)
      .executeTakeFirstOrThrow();
    const t0 = s.t.now();
    // A new exam opening in 100 minutes, reminders 120 and 30 minutes before.
    const { id: soon } = await s.t.db.handle.db
      .insertInto('exams')
      .values({ ...exam, id: undefined, name: '即将开始', start_at: t0 + 100 * 60_000, end_at: t0 + 300 * 60_000 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await call(api.examSmsSave, {
      exam_id: soon,
      invitation_template: '{exam}：{link}',
      reminder_template: '提醒：{exam} {start}：{link}',
      reminder_minutes: [120, 30],
    });
    const invited = await call(api.examEditorInvite, { exam_id: soon, phones: phones(3, 6000), send_sms: false });
    const [, , c] = (invited.data as { list: { anid: number }[] }).list.map((l) => l.anid);
    // The third candidate has a personal window opening 60 minutes from now.
    await s.t.db.handle.db
      .updateTable('invitations')
      .set({ window_start: t0 + 60 * 60_000, window_end: t0 + 200 * 60_000 })
      .where('id', '=', c!)
      .execute();
    // Invited after every 120-minute moment had passed, and no 30-minute moment yet: nothing.
    expect(await s.t.services.smsDispatch.remind()).toBe(0);
    // 29 minutes before the third candidate's own window: their 30-minute reminder alone.
    s.t.advance(31 * 60_000);
    expect(await s.t.services.smsDispatch.remind()).toBe(1);
    expect(await s.t.services.smsDispatch.remind()).toBe(0);
    await sendAll();
    expect(s.t.sms.messages.map((m) => m.phone)).toEqual(['13700006002']);
    expect(s.t.sms.messages[0]!.text).toContain(`提醒：即将开始 ${formatServerTime(t0 + 60 * 60_000).slice(0, 16)}`);
    // 29 minutes before the exam's window: the other two; the third's window has opened.
    s.t.advance(40 * 60_000);
    expect(await s.t.services.smsDispatch.remind()).toBe(2);
    await sendAll();
    expect(s.t.sms.messages.map((m) => m.phone).sort()).toEqual(['13700006000', '13700006001', '13700006002']);
  });

  it('sends ten concurrent resends of the same invitations once per invitation, holds the rest, and caps the day', async () => {
    const invited = await call(api.examEditorInvite, { exam_id: s.examId, phones: phones(2, 7000), send_sms: false });
    const anids = (invited.data as { list: { anid: number }[] }).list.map((l) => l.anid);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(api.invitationsResend, { exam_id: s.examId, anids })),
    );
    const accepted = answers.filter((a) => a.http === 200);
    expect(accepted.reduce((n, a) => n + (a.data as ResendData).queued, 0)).toBe(2);
    // The others either found the texts made already (200, nothing queued) or, started after the first one's
    // commit, were held by the interval: which of the two depends on how the ten interleave.
    const refusal = (a: (typeof answers)[number]) => {
      expect([a.http, a.code]).toEqual([429, 'sms_resend_too_frequent']);
      expect(a.data).toMatchObject({ limit: 'resend_interval', minutes: 5, max: 1 });
    };
    answers.filter((a) => a.http !== 200).forEach(refusal);
    // One more within the interval is held whatever the interleaving was.
    refusal(await call(api.invitationsResend, { exam_id: s.examId, anids }));
    await sendAll();
    const resent = () => s.t.sms.messages.filter((m) => m.purpose === 'resend').map((m) => m.phone);
    expect(resent().sort()).toEqual(['13700007000', '13700007001']);
    // What was held back is in the exam's texts, with the budget that held it.
    const held = await texts({ state: 'held', phone: '1370000700' });
    expect(held.list.length).toBeGreaterThan(0);
    expect(held.list.every((e) => e.purpose === 'resend' && e.held_by === 'resend_interval')).toBe(true);
    expect(held.counts.held).toBe(held.total);

    // One resend per interval, three a day: the fourth is held by the day's budget.
    for (let i = 0; i < 2; i++) {
      s.t.advance(5 * 60_000);
      expect((await call(api.invitationsResend, { exam_id: s.examId, anids })).data).toMatchObject({
        queued: 2,
        held: 0,
      });
    }
    s.t.advance(5 * 60_000);
    const capped = await call(api.invitationsResend, { exam_id: s.examId, anids });
    expect([capped.http, capped.code]).toEqual([429, 'sms_resend_daily_limit']);
    expect(capped.data).toMatchObject({ limit: 'resend_daily', held: 2, max: 3 });
    await sendAll();
    expect(resent()).toHaveLength(6);
  });

  it('answers a resend some of whose texts are held with how many went and how many each budget held', async () => {
    const invited = await call(api.examEditorInvite, { exam_id: s.examId, phones: phones(2, 7100), send_sms: false });
    const [a, b] = (invited.data as { list: { anid: number }[] }).list.map((l) => l.anid);
    expect((await call(api.invitationsResend, { exam_id: s.examId, anids: [a] })).data).toMatchObject({ queued: 1 });
    const mixed = await call(api.invitationsResend, { exam_id: s.examId, anids: [a, b] });
    expect(mixed.http).toBe(200);
    expect(mixed.data as ResendData).toEqual({
      queued: 1,
      held: 1,
      held_by: { ...noneHeld, resend_interval: 1 },
      skipped: [],
    });
    const listed = await texts({ phone: '13700007100' });
    expect(listed.list.map((e) => [e.state, e.held_by])).toEqual([
      ['held', 'resend_interval'],
      ['queued', null],
    ]);
    await sendAll();
    expect(s.t.sms.messages.map((m) => m.phone).sort()).toEqual(['13700007100', '13700007101']);
  });

  it("refuses another team's author and bad bodies with the envelope", async () => {
    // An author of another team: the exam is not theirs to see, so it is not there for them.
    const teamId = await s.t.team('别的团队');
    const author = await s.t.loginStaff('author');
    await s.t.db.handle.db.updateTable('staff').set({ team_id: teamId }).where('role', '=', 'author').execute();
    for (const [c, payload] of [
      [api.invitationsBulk, { exam_id: s.examId, phones: phones(1) }],
      [api.invitationsRevoke, { exam_id: s.examId, anids: [1], reason: 'x' }],
      [api.smsList, { exam_id: s.examId }],
      [api.examSms, { exam_id: s.examId }],
    ] as const) {
      const res = await call(c, payload, author);
      expect([res.http, res.code], c.path).toEqual([404, 'not_found']);
    }
    expect((await call(api.invitationsBulk, { exam_id: s.examId })).http).toBe(422);
    expect((await call(api.invitationsBulk, { exam_id: s.examId, phones: [{ phone: '123' }] })).http).toBe(422);
    expect((await call(api.invitationsRevoke, { exam_id: s.examId, anids: [1], reason: ' ' })).http).toBe(422);
  });
});

describe.each(await testedDialects())('texts have budgets per phone, exam and team on %s', (dialect) => {
  const s = adminApp(dialect, { app: { env: { SMS_PHONE_DAILY: '4', SMS_EXAM_DAILY: '3', SMS_TEAM_DAILY: '5' } } });
  let template: Record<string, unknown> = {};

  const call = async (c: (typeof api)[keyof typeof api], payload: Record<string, unknown>) => {
    const res = await s.t.app.inject({
      method: c.method,
      url: `/api${c.path}`,
      headers: { authorization: `Bearer ${s.admin}` },
      ...(c.method === 'GET'
        ? { query: Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)])) }
        : { payload }),
    });
    return { http: res.statusCode, ...body(res) };
  };
  const sendAll = async () => {
    while ((await s.t.services.smsDispatch.dispatch(60_000)) > 0);
  };
  /** A new exam of `teamId` (null: no team); answers its id. */
  const newExam = async (teamId: number | null) =>
    (
      await s.t.db.handle.db
        .insertInto('exams')
        .values({ ...template, id: undefined, team_id: teamId } as never)
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const bulk = async (id: number, list: { area_code: string; phone: string }[]) => {
    const started = await call(api.invitationsBulk, { exam_id: id, phones: list });
    return (await waitForJob(s.t, s.admin, (started.data as { job_id: number }).job_id)).result as BulkInviteResult;
  };
  const sendCode = (phone: string, ip: string) =>
    s.t.app.inject({ method: 'GET', url: `/api/user/send-msg?phone=${phone}`, remoteAddress: ip });

  beforeAll(async () => {
    template = await s.t.db.handle.db
      .selectFrom('exams')
      .selectAll()
      .where('id', '=', s.examId)
      .executeTakeFirstOrThrow();
  });
  beforeEach(() => {
    s.t.sms.messages.length = 0;
  });

  it("holds an exam's texts past its day's budget and a team's past the team's, and lists them held", async () => {
    const team = await s.t.team('校招组');
    const [first, second] = [await newExam(team), await newExam(team)];
    expect(await bulk(first, phones(5, 8000))).toMatchObject({
      queued: 3,
      held: 2,
      held_by: { ...noneHeld, exam_daily: 2 },
    });
    // The team has 5 a day: 3 went to the first exam, so 2 of the second's 4 go.
    expect(await bulk(second, phones(4, 8100))).toMatchObject({
      queued: 2,
      held: 2,
      held_by: { ...noneHeld, team_daily: 2 },
    });
    await sendAll();
    expect(s.t.sms.messages).toHaveLength(5);
    const listed = (await call(api.smsList, { exam_id: first, state: 'held' })).data as SmsListData;
    expect(listed.list.map((e) => [e.purpose, e.held_by])).toEqual([
      ['invitation', 'exam_daily'],
      ['invitation', 'exam_daily'],
    ]);
    expect(listed.counts).toMatchObject({ sent: 3, held: 2 });
    // A resend of them is held too, and says by which budget.
    const anids = listed.list.map((e) => e.anid);
    const refused = await call(api.invitationsResend, { exam_id: first, anids });
    expect([refused.http, refused.code, refused.data]).toEqual([
      429,
      'sms_exam_daily_limit',
      expect.objectContaining({ limit: 'exam_daily', held: 2, max: 3 }),
    ]);
    // The next day (UTC+8) the budgets start again.
    s.t.advance(24 * 3_600_000);
    s.admin = await s.t.loginStaff('admin');
    expect((await call(api.invitationsResend, { exam_id: first, anids })).data).toMatchObject({ queued: 2, held: 0 });
    await sendAll();
    expect(s.t.sms.messages).toHaveLength(7);
  });

  it("counts a phone's texts of every purpose in one budget a day, and keeps the login code's codes", async () => {
    const exam = await newExam(null);
    const phone = '13700009000';
    // A login code, the invitation, a resend, another login code: the phone's 4 of the day.
    expect((await sendCode(phone, '10.1.0.1')).statusCode).toBe(200);
    const invited = await call(api.examEditorInvite, { exam_id: exam, phones: [{ phone }] });
    const [{ anid }] = (invited.data as { list: { anid: number }[] }).list as [{ anid: number }];
    expect((await call(api.invitationsResend, { exam_id: exam, anids: [anid] })).data).toMatchObject({ queued: 1 });
    s.t.advance(60_000);
    expect((await sendCode(phone, '10.1.0.2')).statusCode).toBe(200);
    // A third login code would be within the codes' own budget (10 a day), not within the phone's.
    s.t.advance(60_000);
    const code = await sendCode(phone, '10.1.0.3');
    expect([code.statusCode, body(code).code]).toEqual([429, 'sms_daily_limit']);
    // The login code's interval keeps its code and message.
    const early = await sendCode('13700009001', '10.1.0.4');
    expect(early.statusCode).toBe(200);
    const again = await sendCode('13700009001', '10.1.0.4');
    expect([again.statusCode, body(again).code, body(again).msg]).toEqual([
      429,
      'sms_too_frequent',
      'a code was sent recently, please wait 60 s before requesting another',
    ]);
    // And an invitation's text is held by the phone's budget.
    s.t.advance(5 * 60_000);
    const held = await call(api.invitationsResend, { exam_id: exam, anids: [anid] });
    expect([held.http, held.code, held.data]).toEqual([
      429,
      'sms_phone_daily_limit',
      expect.objectContaining({ limit: 'phone_daily', held: 1, max: 4 }),
    ]);
    await sendAll();
    // Login codes go in their request, the others when the dispatcher runs.
    expect(s.t.sms.messages.filter((m) => m.phone === phone).map((m) => m.purpose)).toEqual([
      'login',
      'login',
      'invitation',
      'resend',
    ]);
    const listed = (await call(api.smsList, { exam_id: exam, phone })).data as SmsListData;
    expect(listed.list.map((e) => [e.purpose, e.state, e.held_by])).toEqual([
      ['resend', 'held', 'phone_daily'],
      ['resend', 'sent', null],
      ['invitation', 'sent', null],
    ]);
  });
});
