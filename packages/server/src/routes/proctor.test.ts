import { createHash, randomUUID } from 'node:crypto';
import {
  QuestionType,
  type CandidateEvent,
  type IntegrityRecord,
  ProctorAttemptData,
  type ProctorEvent,
  type ProctorGridData,
  type ProctorTile,
  type WarningView,
} from '@examhall/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attemptPrefix } from '../services/chain.js';
import { signed } from '../test/media.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { invitationOf, setExamSettings } from '../test/examScenario.js';
import { openSse, type SseClient } from '../test/sse.js';
import { enterExam } from '../test/checks.js';

const PHONE = '13800138000';
const OTHER = '13700137000';

describe.each(await testedDialects())('the proctor console on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let token: string;
  let examId: number;
  let anid: number;
  const staff: Record<'admin' | 'proctor' | 'grader', string> = { admin: '', proctor: '', grader: '' };
  const open: SseClient<unknown>[] = [];

  beforeEach(async () => {
    t = await createTestApp(dialect);
    ({ examId, anid } = await t.seed(PHONE));
    // Without the camera and phone steps, whose skips would be flags of their own in every count below.
    await setExamSettings(t, examId, { is_close_camera: 1, is_close_phone: 1 });
    token = await t.loginCandidate(PHONE);
    for (const role of ['admin', 'proctor', 'grader'] as const) staff[role] = await t.loginStaff(role, { examId });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await t.close();
  });

  const asStaff = (tok: string) => ({ authorization: `Bearer ${tok}` });
  const staffGet = (url: string, tok = staff.proctor) => t.app.inject({ url: `/api${url}`, headers: asStaff(tok) });
  const staffPost = (url: string, payload: object, tok = staff.proctor) =>
    t.app.inject({ method: 'POST', url: `/api${url}`, headers: asStaff(tok), payload });
  const post = (url: string, payload: object, tok = token) =>
    t.app.inject({ method: 'POST', url: `/api${url}?auth=${tok}`, payload });
  const start = async (tok = token) =>
    body<{ attempt: { id: number; phase: number } }>(await enterExam(t, tok, examId, anid)).data.attempt;
  const recordRisk = (risk: number, extra: Record<string, string> = {}, tok = token) =>
    t.app.inject({
      method: 'POST',
      url: `/api/monitor/record-risk?auth=${tok}`,
      payload: new URLSearchParams({
        exam_id: String(examId),
        risk: String(risk),
        trigger_time: String(t.now()),
        client_id: randomUUID(),
        ...extra,
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const proctorStream = async (tok = staff.proctor) => {
    const c = await openSse<ProctorEvent>(`${base}/api/admin/proctor/stream?exam_id=${examId}`, asStaff(tok));
    open.push(c);
    return c;
  };
  const candidateStream = async (tok = token) => {
    const c = await openSse<CandidateEvent>(`${base}/api/monitor/events?exam_id=${examId}&auth=${tok}`);
    open.push(c);
    return c;
  };
  const grid = async () =>
    body<{ tiles: ProctorTile[]; server_time: number }>(await staffGet(`/admin/proctor/grid?exam_id=${examId}`)).data;

  it('shows a risk event the candidate records through /monitor/record-risk on the proctor stream within 2 s, with its picture', async () => {
    const attempt = await start();
    const stream = await proctorStream();
    expect(stream.status).toBe(200);
    expect(stream.contentType).toMatch(/^text\/event-stream/);
    await stream.next((e) => e.type === 'hello');

    const key = `${attemptPrefix({ exam_id: examId, id: attempt.id })}pertinent/p1.jpg`;
    const jpeg = Buffer.from('a picture taken at the moment of the event');
    await t.store.put(key, jpeg);
    const sent = Date.now();
    const res = await recordRisk(1, { image_key: key, detail: 'left the page' });
    expect(res.statusCode).toBe(200);
    const recordId = body<{ id: number }>(res).data.id;
    const ev = await stream.next((e) => e.type === 'risk' && e.record.id === recordId, 2_000);
    expect(Date.now() - sent).toBeLessThan(2_000);
    if (ev.type !== 'risk') throw new Error('not a risk event');
    expect(ev.attempt_id).toBe(attempt.id);
    expect(ev.record).toMatchObject({ kind: 'risk', risk: 1, detail: 'left the page', decision: null });
    // The picture link works on its own, without any other credential.
    const url = new URL(ev.record.image_url!);
    // (The signature covers the host the store is published at.)
    const picture = await t.app.inject({ url: `${url.pathname}${url.search}`, headers: { host: url.host } });
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload).toEqual(jpeg);
    // The tile follows with the new count.
    const tile = await stream.next((e) => e.type === 'tile' && e.tile.risk_count === 1, 2_000);
    if (tile.type !== 'tile') throw new Error('not a tile');
    expect(tile.tile).toMatchObject({ attempt_id: attempt.id, risk_count: 1, open_flags: 1, phase: 2 });
    // The grid and the timeline agree with the stream: the same builders.
    expect((await grid()).tiles).toEqual([tile.tile]);
    const timeline = body<{ records: IntegrityRecord[]; tile: ProctorTile }>(
      await staffGet(`/admin/proctor/attempt?attempt_id=${attempt.id}`),
    ).data;
    // After the device checks' records, the risk event as the stream showed it.
    expect(timeline.records.filter((r) => r.kind === 'risk').map((r) => ({ ...r, image_url: null }))).toEqual([
      { ...ev.record, image_url: null },
    ]);

    // A camera frame becomes the tile's picture (a risk event's picture does not).
    expect(tile.tile.picture_url).toBeNull();
    const frameKey = `${attemptPrefix({ exam_id: examId, id: attempt.id })}frames/f1.jpg`;
    const frame = signed('jpeg', 'a camera frame');
    await t.store.put(frameKey, frame);
    const captured = await post('/monitor/capture', {
      exam_id: examId,
      kind: 'frame',
      key: frameKey,
      sha256: createHash('sha256').update(frame).digest('hex'),
      trigger_time: t.now(),
      client_id: randomUUID(),
    });
    expect(captured.statusCode).toBe(200);
    const pictured = await stream.next((e) => e.type === 'tile' && e.tile.picture_url !== null, 2_000);
    if (pictured.type !== 'tile') throw new Error('not a tile');
    const frameUrl = new URL(pictured.tile.picture_url!);
    const shown = await t.app.inject({
      url: `${frameUrl.pathname}${frameUrl.search}`,
      headers: { host: frameUrl.host },
    });
    expect(shown.rawPayload).toEqual(frame);
    // Evidence is not a risk event: no 'risk' event for it, and the count stays.
    expect(pictured.tile.risk_count).toBe(1);
    expect(stream.events.filter((e) => e.type === 'risk')).toHaveLength(1);
  });

  it('refuses a stream of an exam that does not exist, and lists exams with attempts, in progress and open flags', async () => {
    await start();
    const exams = body<{ list: { id: number; attempts: number; in_progress: number; open_flags: number }[] }>(
      await staffGet('/admin/proctor/exams'),
    ).data.list;
    expect(exams.find((e) => e.id === examId)).toMatchObject({ attempts: 1, in_progress: 1, open_flags: 0 });
    const other = await openSse<ProctorEvent>(
      `${base}/api/admin/proctor/stream?exam_id=${examId + 1000}`,
      asStaff(staff.proctor),
    );
    expect(other.status).toBe(404);
    await recordRisk(3);
    await recordRisk(4);
    const after = body<{ list: { id: number; open_flags: number }[] }>(await staffGet('/admin/proctor/exams')).data
      .list;
    expect(after.find((e) => e.id === examId)?.open_flags).toBe(2);
  });

  it("keeps a decision's internal note on the staff side: the candidate's log shows only the note written to them", async () => {
    const attempt = await start();
    const recordId = body<{ id: number }>(await recordRisk(3)).data.id;
    const decided = await staffPost('/admin/proctor/decide', {
      record_id: recordId,
      decision: 'confirmed',
      note: 'INTERNAL seen a second person on camera',
      candidate_note: 'Please keep the room quiet and private.',
    });
    expect(body<IntegrityRecord>(decided).data).toMatchObject({
      decision_note: 'INTERNAL seen a second person on camera',
      candidate_note: 'Please keep the room quiet and private.',
    });
    const timeline = body<{ records: IntegrityRecord[] }>(
      await staffGet(`/admin/proctor/attempt?attempt_id=${attempt.id}`),
    ).data;
    expect(timeline.records.find((r) => r.kind === 'risk')).toMatchObject({
      decision_note: 'INTERNAL seen a second person on camera',
      candidate_note: 'Please keep the room quiet and private.',
    });
    // After a dismissal too, the attempt's timeline is what the console's schema reads.
    const other = body<{ id: number }>(await recordRisk(4)).data.id;
    expect((await staffPost('/admin/proctor/decide', { record_id: other, decision: 'dismissed' })).statusCode).toBe(
      200,
    );
    const read = ProctorAttemptData.safeParse(
      body<unknown>(await staffGet(`/admin/proctor/attempt?attempt_id=${attempt.id}`)).data,
    );
    expect(read.error?.issues ?? []).toEqual([]);

    await post('/monitor/finish-exam', { exam_id: examId });
    const res = await t.app.inject(`/api/monitor/integrity-log?exam_id=${examId}&auth=${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('INTERNAL');
    const record = body<{ records: Record<string, unknown>[] }>(res).data.records.find((r) => r.kind === 'risk');
    expect(record).toMatchObject({ decision: 'confirmed', candidate_note: 'Please keep the room quiet and private.' });
    expect(record).not.toHaveProperty('decision_note');
  });

  it("delivers a warning to the candidate's stream within 2 s, and the candidate sees it in the integrity log after the exam", async () => {
    const attempt = await start();
    const events = await candidateStream();
    expect(events.status).toBe(200);
    await events.next((e) => e.type === 'hello');
    const sent = Date.now();
    const res = await staffPost('/admin/proctor/warn', {
      attempt_id: attempt.id,
      text: '  Eyes on your own screen, please.  ',
    });
    expect(res.statusCode).toBe(200);
    const warning = body<{ id: number; text: string; time: number }>(res).data;
    expect(warning.text).toBe('Eyes on your own screen, please.');
    const got = await events.next((e) => e.type === 'warning', 2_000);
    expect(Date.now() - sent).toBeLessThan(2_000);
    expect(got).toEqual({ type: 'warning', warning });

    // The log is the candidate's only after submitting.
    const early = await t.app.inject(`/api/monitor/integrity-log?exam_id=${examId}&auth=${token}`);
    expect(early.statusCode).toBe(409);
    expect(body(early).code).toBe('exam_not_finished');
    await recordRisk(3);
    await post('/monitor/finish-exam', { exam_id: examId });
    const ended = await events.next((e) => e.type === 'ended', 2_000);
    expect(ended).toMatchObject({ type: 'ended', reason: 'submit', attempt: { id: attempt.id, phase: 3 } });
    const log = body<{ records: IntegrityRecord[]; warnings: unknown[] }>(
      await t.app.inject(`/api/monitor/integrity-log?exam_id=${examId}&auth=${token}`),
    ).data;
    expect(log.warnings).toEqual([warning]);
    // The device checks (passed, no risk) come before it.
    expect(
      log.records.filter((r) => r.kind !== 'check' && r.kind !== 'signature').map((r) => [r.kind, r.risk]),
    ).toEqual([['risk', 3]]);

    const audit = await t.db.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'proctor.warn')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.target).toBe(`attempt:${attempt.id}`);
  });

  it('records when the candidate reads a warning: the first read counts, only their own warnings, and the console shows it', async () => {
    const attempt = await start();
    const warn = async (text: string) =>
      body<WarningView>(await staffPost('/admin/proctor/warn', { attempt_id: attempt.id, text })).data;
    const first = await warn('Eyes on your own screen, please.');
    const second = await warn('Please keep your face in the picture.');
    expect([first.read_at, second.read_at]).toEqual([null, null]);
    const timeline = async () =>
      body<ProctorAttemptData>(await staffGet(`/admin/proctor/attempt?attempt_id=${attempt.id}`)).data;
    expect((await timeline()).warnings.map((w) => w.read_at)).toEqual([null, null]);
    const console = await proctorStream();
    await console.next((e) => e.type === 'hello');

    const read = (warningId: number | string, tok = token, exam: number = examId) =>
      post('/monitor/warning-read', { exam_id: exam, warning_id: warningId }, tok);
    t.advance(3_000);
    const readAt = t.now();
    const res = await read(first.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(body<WarningView>(res).data).toEqual({ ...first, read_at: readAt });
    // The console hears of it: the attempt's tile is announced again.
    await console.next((e) => e.type === 'tile' && e.tile.attempt_id === attempt.id, 2_000);
    // A repeat (a retry, a second click) keeps the first time.
    t.advance(5_000);
    const again = await read(first.id);
    expect(again.statusCode).toBe(200);
    expect(body<WarningView>(again).data.read_at).toBe(readAt);
    const rows = await t.db.handle.db.selectFrom('warnings').select(['id', 'read_at']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: first.id, read_at: readAt },
      { id: second.id, read_at: null },
    ]);
    expect((await timeline()).warnings).toEqual([
      { ...first, read_at: readAt },
      { ...second, read_at: null },
    ]);

    // Nobody else can mark them: another candidate of the exam, someone not invited, staff, no one at all.
    await t.invite(examId, OTHER);
    const otherToken = await t.loginCandidate(OTHER);
    await enterExam(t, otherToken, examId, await anidOf(OTHER));
    const other = await read(second.id, otherToken);
    expect([other.statusCode, body(other).code]).toEqual([404, 'warning_not_found']);
    const stranger = await read(second.id, await t.loginCandidate('13500135000'));
    expect([stranger.statusCode, body(stranger).code]).toEqual([404, 'warning_not_found']);
    const asStaffMember = await t.app.inject({
      method: 'POST',
      url: '/api/monitor/warning-read',
      headers: asStaff(staff.proctor),
      payload: { exam_id: examId, warning_id: second.id },
    });
    expect(asStaffMember.statusCode).toBe(401);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/monitor/warning-read',
      payload: { exam_id: examId, warning_id: second.id },
    });
    expect(anonymous.statusCode).toBe(401);
    // Nor through another exam, nor a warning that does not exist, nor a malformed id.
    expect(body(await read(second.id, token, 999_999)).code).toBe('exam_detail_missing');
    expect(body(await read(999_999)).code).toBe('warning_not_found');
    expect((await read('x')).statusCode).toBe(422);
    expect((await timeline()).warnings[1]!.read_at).toBeNull();
  });

  it('ends an attempt: the candidate\'s stream gets "ended" with the reason and later writes get exam_finished', async () => {
    const attempt = await start();
    const events = await candidateStream();
    await events.next((e) => e.type === 'hello');
    const console = await proctorStream();
    await console.next((e) => e.type === 'hello');

    const res = await staffPost('/admin/proctor/end', { attempt_id: attempt.id, reason: 'Another person in the room' });
    expect(res.statusCode).toBe(200);
    expect(body<{ phase: number }>(res).data.phase).toBe(3);
    const ended = await events.next((e) => e.type === 'ended', 2_000);
    expect(ended).toMatchObject({
      reason: 'proctor: Another person in the room',
      attempt: { id: attempt.id, phase: 3 },
    });
    await console.next((e) => e.type === 'tile' && e.tile.attempt_id === attempt.id && e.tile.phase === 3, 2_000);

    const question = await t.db.handle.db
      .selectFrom('questions')
      .select('id')
      .where('exam_id', '=', examId)
      .where('type', '=', QuestionType.single)
      .executeTakeFirstOrThrow();
    const save = await post('/answer/answer', {
      exam_id: examId,
      subject_id: question.id,
      answer: { kind: 'choice', option: 'A' },
      client_id: randomUUID(),
      seq: 1,
      changed_at: t.now(),
    });
    expect(save.statusCode).toBe(409);
    expect(body(save).code).toBe('exam_finished');
    const again = await staffPost('/admin/proctor/end', { attempt_id: attempt.id, reason: 'twice' });
    expect(body(again).code).toBe('exam_finished');
    const timeline = body<{ finish_reason: string }>(
      await staffGet(`/admin/proctor/attempt?attempt_id=${attempt.id}`),
    ).data;
    expect(timeline.finish_reason).toBe('proctor: Another person in the room');
    const audit = await t.db.handle.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'proctor.end')
      .execute();
    expect(audit.map((a) => [a.actor_kind, a.target, JSON.parse(a.after!).finish_note])).toEqual([
      ['staff', `attempt:${attempt.id}`, 'Another person in the room'],
    ]);
    // A stream opened after the end says so at once.
    const late = await candidateStream();
    await late.next((e) => e.type === 'ended', 2_000);
  });

  it("tells the candidate's stream when the attempt ends by itself: time up (the sweeper) or too many screen switches", async () => {
    await start();
    const events = await candidateStream();
    await events.next((e) => e.type === 'hello');
    const attempt = await t.db.handle.db.selectFrom('attempts').selectAll().executeTakeFirstOrThrow();
    t.advance(attempt.end_at! - t.now() + 1);
    expect(await t.services.attempts.sweepOverdue()).toBe(1);
    expect(await events.next((e) => e.type === 'ended', 2_000)).toMatchObject({ reason: 'timeout' });

    // Another candidate switches screens until the allowance is used up.
    await t.invite(examId, OTHER);
    await t.db.handle.db
      .updateTable('exams')
      .set({ end_at: t.now() + 3_600_000 })
      .where('id', '=', examId)
      .execute();
    const other = await t.loginCandidate(OTHER);
    const inv = await t.db.handle.db
      .selectFrom('invitations')
      .select('id')
      .where('phone', '=', OTHER)
      .executeTakeFirstOrThrow();
    await enterExam(t, other, examId, inv.id);
    const otherEvents = await candidateStream(other);
    await otherEvents.next((e) => e.type === 'hello');
    let phase = 2;
    for (let i = 0; i < 50 && phase === 2; i++)
      phase = body<{ phase: number }>(await recordRisk(1, {}, other)).data.phase;
    expect(phase).toBe(3);
    expect(await otherEvents.next((e) => e.type === 'ended', 2_000)).toMatchObject({ reason: 'cuts' });
  });

  it("tells the candidate's stream and the console when the phone connects and when it goes quiet", async () => {
    const attempt = await start();
    const events = await candidateStream();
    await events.next((e) => e.type === 'phone' && e.mobileDeviceStatus === 0);
    const console = await proctorStream();
    await console.next((e) => e.type === 'hello');
    const link = body<{ url: string }>(
      await t.app.inject(`/api/exam/wx-url-link?exam_id=${examId}&anid=${anid}&auth=${token}`),
    ).data;
    const phoneToken = new URL(link.url).searchParams.get('auth')!;
    expect((await t.app.inject(`/api/phone/session?auth=${phoneToken}`)).statusCode).toBe(200);
    await events.next((e) => e.type === 'phone' && e.mobileDeviceStatus === 1, 2_000);
    await console.next(
      (e) => e.type === 'tile' && e.tile.attempt_id === attempt.id && e.tile.mobileDeviceStatus === 1,
      2_000,
    );
    t.advance(11_000);
    expect(await t.services.phone.sweep()).toBe(1);
    const phoneStates = () => events.events.flatMap((e) => (e.type === 'phone' ? [e.mobileDeviceStatus] : []));
    await expect.poll(phoneStates, { timeout: 2_000 }).toEqual([0, 1, 0]);
  });

  it('decides a flag with a note without touching the attempt; only risk records are decided', async () => {
    const attempt = await start();
    const recordId = body<{ id: number }>(await recordRisk(3)).data.id;
    const res = await staffPost('/admin/proctor/decide', {
      record_id: recordId,
      decision: 'dismissed',
      note: 'window resize',
    });
    expect(res.statusCode).toBe(200);
    expect(body<IntegrityRecord>(res).data).toMatchObject({
      id: recordId,
      decision: 'dismissed',
      decision_note: 'window resize',
    });
    const confirmed = await staffPost('/admin/proctor/decide', { record_id: recordId, decision: 'confirmed' });
    expect(body<IntegrityRecord>(confirmed).data).toMatchObject({ decision: 'confirmed', decision_note: '' });
    const timeline = body<{ records: IntegrityRecord[]; tile: ProctorTile }>(
      await staffGet(`/admin/proctor/attempt?attempt_id=${attempt.id}`),
    ).data;
    expect(timeline.records.find((r) => r.id === recordId)).toMatchObject({ decision: 'confirmed' });
    expect(timeline.tile).toMatchObject({ phase: 2, risk_count: 1, open_flags: 0 });
    // The chain still verifies: decisions are not part of what it proves.
    expect((await t.services.risk.verifyChain(attempt.id)).ok).toBe(true);
    const audit = await t.db.handle.db
      .selectFrom('audit_log')
      .select('after')
      .where('action', '=', 'proctor.decide')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => JSON.parse(a.after!).decision)).toEqual(['dismissed', 'confirmed']);

    // Evidence is not a flag.
    const [evidence] = await t.db.handle.db
      .insertInto('risk_records')
      .values({
        attempt_id: attempt.id,
        risk: 0,
        category: 0,
        trigger_time: t.now(),
        detail: '',
        image_key: null,
        kind: 'frame',
        client_id: randomUUID(),
        prev_hash: 'x'.repeat(64),
        hash: 'y'.repeat(64),
        created_at: t.now(),
      })
      .returning('id')
      .execute();
    const refused = await staffPost('/admin/proctor/decide', { record_id: evidence!.id, decision: 'confirmed' });
    expect(refused.statusCode).toBe(422);
    expect(body(refused).code).toBe('validation_error');
    const missing = await staffPost('/admin/proctor/decide', { record_id: 999_999, decision: 'confirmed' });
    expect(body(missing).code).toBe('not_found');
  });

  it('keeps proctor calls to their roles: a grader can neither watch, warn nor end, a candidate token is refused, and a candidate reads only their own log', async () => {
    const attempt = await start();
    for (const [url, payload] of [
      ['/admin/proctor/warn', { attempt_id: attempt.id, text: 'hi' }],
      ['/admin/proctor/end', { attempt_id: attempt.id, reason: 'x' }],
      ['/admin/proctor/decide', { record_id: 1, decision: 'confirmed' }],
    ] as const) {
      const res = await staffPost(url, payload, staff.grader);
      expect(res.statusCode).toBe(403);
      expect(body(res).code).toBe('forbidden');
      const cand = await t.app.inject({ method: 'POST', url: `/api${url}?auth=${token}`, payload });
      expect(cand.statusCode).toBe(401);
    }
    const graderGrid = await staffGet(`/admin/proctor/grid?exam_id=${examId}`, staff.grader);
    expect(graderGrid.statusCode).toBe(403);
    // Streams refuse the same way, with the JSON envelope and before any stream starts.
    const graderStream = await openSse(`${base}/api/admin/proctor/stream?exam_id=${examId}`, asStaff(staff.grader));
    expect([graderStream.status, graderStream.contentType]).toEqual([403, expect.stringMatching(/^application\/json/)]);
    const candStream = await openSse(`${base}/api/admin/proctor/stream?exam_id=${examId}&auth=${token}`);
    expect(candStream.status).toBe(401);
    const staffOnCandidate = await openSse(`${base}/api/monitor/events?exam_id=${examId}`, asStaff(staff.admin));
    expect(staffOnCandidate.status).toBe(401);
    const bad = await openSse(`${base}/api/admin/proctor/stream?exam_id=abc`, asStaff(staff.proctor));
    expect(bad.status).toBe(422);
    const noAccept = await t.app.inject({
      url: `/api/admin/proctor/stream?exam_id=${examId}`,
      headers: asStaff(staff.proctor),
    });
    expect([noAccept.statusCode, body(noAccept).code]).toEqual([406, 'not_acceptable']);
    // HEAD answers at once instead of holding a stream open.
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/admin/proctor/stream?exam_id=${examId}`,
      headers: { ...asStaff(staff.proctor), accept: 'text/event-stream' },
    });
    expect([head.statusCode, head.headers['content-type']]).toEqual([200, 'text/event-stream; charset=utf-8']);
    // Nothing refused left a trace.
    expect(
      await t.db.handle.db.selectFrom('audit_log').select('action').where('action', 'like', 'proctor.%').execute(),
    ).toEqual([]);

    // Another candidate, invited too, finished their own attempt: they still see only their own log.
    await t.invite(examId, OTHER);
    const otherToken = await t.loginCandidate(OTHER);
    await recordRisk(4);
    const otherAttempt = body<{ attempt: { id: number } }>(await enterExam(t, otherToken, examId, await anidOf(OTHER)))
      .data.attempt;
    await post('/monitor/finish-exam', { exam_id: examId }, otherToken);
    const otherLog = body<{ records: IntegrityRecord[] }>(
      await t.app.inject(`/api/monitor/integrity-log?exam_id=${examId}&auth=${otherToken}`),
    ).data;
    expect(otherAttempt.id).not.toBe(attempt.id);
    expect(otherLog.records.filter((r) => r.kind === 'risk')).toEqual([]);
    // Someone not invited gets nothing about the exam.
    const stranger = await t.loginCandidate('13500135000');
    const none = await t.app.inject(`/api/monitor/integrity-log?exam_id=${examId}&auth=${stranger}`);
    expect(body(none).code).toBe('exam_detail_missing');
    const noStream = await openSse(`${base}/api/monitor/events?exam_id=${examId}&auth=${stranger}`);
    expect(noStream.status).toBe(404);
  });

  it("shows presence: online while the candidate's stream is open, offline once the last contact is older than 30 s", async () => {
    const attempt = await start();
    const console = await proctorStream();
    await console.next((e) => e.type === 'hello');
    expect((await grid()).tiles[0]).toMatchObject({ online: false, last_seen: null });
    const events = await candidateStream();
    await events.next((e) => e.type === 'hello');
    await console.next((e) => e.type === 'tile' && e.tile.attempt_id === attempt.id && e.tile.online, 2_000);
    expect((await grid()).tiles[0]).toMatchObject({ online: true, last_seen: t.now() });
    t.advance(5_000);
    events.close();
    // The disconnect is announced with the time of the last contact.
    await console.next((e) => e.type === 'tile' && e.tile.last_seen === t.now(), 2_000);
    t.advance(29_000);
    expect((await grid()).tiles[0]!.online).toBe(true);
    t.advance(2_000);
    expect((await grid()).tiles[0]!.online).toBe(false);
  });

  it('pages, filters and orders the grid in the database, names the exam, and starts the feed with the flags still waiting', async () => {
    // Four candidates: A with two flags (one decided), B with one, C whose phone went quiet, D never connected.
    const phones = { a: PHONE, b: '13900000002', c: '13900000003', d: '13900000004' };
    const ids: Record<keyof typeof phones, number> = { a: 0, b: 0, c: 0, d: 0 };
    const tokens: Record<keyof typeof phones, string> = { a: token, b: '', c: '', d: '' };
    for (const k of ['a', 'b', 'c', 'd'] as const) {
      if (k !== 'a') {
        await t.invite(examId, phones[k]);
        tokens[k] = await t.loginCandidate(phones[k]);
      }
      const res = await enterExam(t, tokens[k], examId, await anidOf(phones[k]));
      ids[k] = body<{ attempt: { id: number } }>(res).data.attempt.id;
    }
    const decided = body<{ id: number }>(await recordRisk(3, {}, tokens.a)).data.id;
    await staffPost('/admin/proctor/decide', { record_id: decided, decision: 'dismissed' });
    const openA = body<{ id: number }>(await recordRisk(1, {}, tokens.a)).data.id;
    t.advance(1_000);
    const openB = body<{ id: number }>(await recordRisk(4, {}, tokens.b)).data.id;
    const now = t.now();
    await t.db.handle.db
      .updateTable('attempts')
      .set({ last_seen_at: now })
      .where('id', 'in', [ids.a, ids.b, ids.c])
      .execute();
    await t.db.handle.db
      .updateTable('attempts')
      .set({ phone_seen_at: now - 20_000 })
      .where('id', '=', ids.c)
      .execute();
    await t.db.handle.db.updateTable('attempts').set({ phone_seen_at: now }).where('id', '=', ids.a).execute();

    const page = async (query: string) =>
      body<ProctorGridData>(await staffGet(`/admin/proctor/grid?exam_id=${examId}${query}`)).data;
    const all = await page('');
    const exam = await t.db.handle.db
      .selectFrom('exams')
      .select('name')
      .where('id', '=', examId)
      .executeTakeFirstOrThrow();
    expect(all.exam_name).toBe(exam.name);
    expect(all.tiles.map((x) => x.attempt_id)).toEqual([ids.a, ids.b, ids.c, ids.d]);
    expect(all.counts).toEqual({ all: 4, risk: 2, flags: 2, offline: 1, phone_lost: 1 });
    expect(all.total).toBe(4);
    // The feed opens with the flags nobody has decided yet, newest first, with whose they are.
    expect(all.pending.map((p) => [p.attempt_id, p.record.id])).toEqual([
      [ids.b, openB],
      [ids.a, openA],
    ]);
    expect(all.pending[1]!.name).toBe(all.tiles[0]!.name);

    expect((await page('&filter=risk&sort=risk')).tiles.map((x) => [x.attempt_id, x.risk_count])).toEqual([
      [ids.a, 2],
      [ids.b, 1],
    ]);
    expect((await page('&filter=offline')).tiles.map((x) => x.attempt_id)).toEqual([ids.d]);
    expect((await page('&filter=phone_lost')).tiles.map((x) => x.attempt_id)).toEqual([ids.c]);
    expect((await page('&filter=flags&sort=flags')).tiles.map((x) => x.attempt_id)).toEqual([ids.a, ids.b]);
    const second = await page('&page=2&page_size=3');
    expect(second.tiles.map((x) => x.attempt_id)).toEqual([ids.d]);
    expect(second.total).toBe(4);
    // The rules of the tile and the filter agree: D shows offline, C's phone shows lost.
    expect(all.tiles[3]!.online).toBe(false);
    expect(all.tiles[2]!.mobileDeviceStatus).toBe(0);
    // Once the flag is decided it leaves the feed a page opens with; a submitted attempt is not offline.
    await staffPost('/admin/proctor/decide', { record_id: openB, decision: 'confirmed' });
    expect((await post('/monitor/finish-exam', { exam_id: examId }, tokens.d)).statusCode).toBe(200);
    const after = await page('');
    expect(after.pending.map((p) => p.record.id)).toEqual([openA]);
    const refused = await staffGet(`/admin/proctor/grid?exam_id=${examId}&page_size=1000`);
    expect(body(refused).code).toBe('validation_error');
    expect(after.counts).toMatchObject({ flags: 1, offline: 0 });
  });

  /** The invitation id of a phone to the exam. */
  const anidOf = (phone: string) => invitationOf(t, examId, phone);
});
