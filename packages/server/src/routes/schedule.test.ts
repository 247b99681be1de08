/**
 * Schedules and accommodations over HTTP on both dialects: the candidate's effective window and length,
 * percentage extra time rounded up, slots with seats (a race for the last seat), the candidate's slot choice
 * and its limits, reopening a finished attempt and the overdue sweeper, and the audit entries they leave.
 */
import { randomUUID } from 'node:crypto';
import {
  api,
  QuestionType,
  type AttemptView,
  type CandidateSlotsData,
  type ExamIndexData,
  type InvitationListData,
  type SlotListData,
  type SlotView,
} from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { body } from '../test/app.js';
import { enterExam } from '../test/checks.js';
import { lastAuditEntry } from '../test/auditLog.js';
import { testedDialects } from '../test/db.js';
import { adminApp } from '../test/examScenario.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(await testedDialects())('schedules and accommodations on %s', (dialect) => {
  const s = adminApp(dialect);
  const { call, ok } = s;
  let phoneNo = 0;

  /** Calls as a candidate (token in the query, as the specification sends it). */
  async function cand<T = unknown>(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
    const sep = url.includes('?') ? '&' : '?';
    const res = await s.t.app.inject({ method, url: `/api${url}${sep}auth=${token}`, ...(payload ? { payload } : {}) });
    return { ...body<T>(res), http: res.statusCode };
  }

  /** A new candidate invited to the demo exam: their anid and token. */
  async function candidate(): Promise<{ anid: number; token: string; phone: string }> {
    phoneNo += 1;
    const phone = `1371${String(phoneNo).padStart(7, '0')}`;
    const anid = await s.t.invite(s.examId, phone);
    return { anid, token: await s.t.loginCandidate(phone), phone };
  }

  const listItem = async (token: string) =>
    (await cand<ExamIndexData>(token, 'GET', '/exam/index')).data.list.find((e) => e.id === s.examId)!;

  const enter = async (token: string, anid: number) => {
    const res = await enterExam(s.t, token, s.examId, anid);
    expect(res.statusCode, res.body).toBe(200);
    return body<{ attempt: AttemptView }>(res).data.attempt;
  };

  const newSlot = (start: number, capacity: number, label = 'Slot') =>
    ok<SlotView>(api.scheduleSlotCreate, {
      exam_id: s.examId,
      label,
      start_at: start,
      end_at: start + 2 * HOUR,
      capacity,
    });

  const accommodate = (ids: number[], fields: Record<string, unknown>) =>
    ok<{ changed: number; attempts_moved: number }>(api.scheduleAccommodations, {
      exam_id: s.examId,
      invitation_ids: ids,
      ...fields,
    });

  it('adds extra minutes or a percentage of the length, rounded up, to the list, the detail and the clock', async () => {
    const a = await candidate();
    const b = await candidate();
    await accommodate([a.anid], { extra: { mode: 'minutes', value: 15 } });
    // 33% of 60 minutes is 19.8: rounded up to 20.
    await accommodate([b.anid], { extra: { mode: 'percent', value: 33 } });
    expect(await listItem(a.token)).toMatchObject({ time: 75, base_time: 60, extra_minutes: 15 });
    expect(await listItem(b.token)).toMatchObject({ time: 80, base_time: 60, extra_minutes: 20 });
    const detail = await cand<{ time: number }>(b.token, 'GET', `/exam/show?id=${s.examId}&anid=${b.anid}`);
    expect(detail.data.time).toBe(80);
    const attempt = await enter(a.token, a.anid);
    expect(attempt.end_time).toBe(s.t.now() + 75 * MINUTE);
    const staffView = await ok<InvitationListData>(api.scheduleInvitations, { exam_id: s.examId, phone: b.phone });
    expect(staffView.list).toEqual([
      expect.objectContaining({ id: b.anid, extra_mode: 'percent', extra_value: 33, extra_minutes: 20 }),
    ]);
  });

  it('moves the end of a running attempt when its extra time changes', async () => {
    const a = await candidate();
    const started = s.t.now();
    const attempt = await enter(a.token, a.anid);
    s.t.advance(5 * MINUTE);
    const moved = await accommodate([a.anid], { extra: { mode: 'percent', value: 50 } });
    expect(moved).toEqual({ changed: 1, attempts_moved: 1 });
    expect((await s.t.services.attempts.byId(attempt.id))!.end_at).toBe(started + 90 * MINUTE);
  });

  it('a personal window overrides the exam window: refused before, open inside, the end capped by it', async () => {
    const a = await candidate();
    const start = s.t.now() + 2 * HOUR;
    await accommodate([a.anid], {
      window: { start_at: start, end_at: start + 30 * MINUTE },
      extra: { mode: 'minutes', value: 10 },
    });
    expect(await listItem(a.token)).toMatchObject({
      state: 'not_started',
      window_start: start,
      window_end: start + 30 * MINUTE,
      window_source: 'personal',
    });
    const early = await cand(a.token, 'POST', '/monitor/start-exam', { exam_id: s.examId, anid: a.anid });
    expect([early.http, early.code]).toEqual([409, 'exam_not_open']);
    s.t.advance(2 * HOUR);
    expect((await listItem(a.token)).state).toBe('open');
    const attempt = await enter(a.token, a.anid);
    // 60 + 10 minutes would run past the window's end: the end is the window's end plus the extra time.
    expect(attempt.end_time).toBe(start + 30 * MINUTE + 10 * MINUTE);
    s.t.advance(40 * MINUTE);
    // A later candidate with a window that has closed cannot start.
    const late = await candidate();
    await accommodate([late.anid], { window: { start_at: s.t.now() - HOUR, end_at: s.t.now() - MINUTE } });
    expect((await listItem(late.token)).state).toBe('closed');
    const refused = await cand(late.token, 'POST', '/monitor/start-exam', { exam_id: s.examId, anid: late.anid });
    expect([refused.http, refused.code]).toEqual([409, 'exam_not_open']);
  });

  it('a slot is the window of the candidates in it; staff seat them up to its capacity', async () => {
    const slot = await newSlot(s.t.now() + HOUR, 2, 'Afternoon');
    const [a, b, c] = [await candidate(), await candidate(), await candidate()];
    const assign = (ids: number[]) =>
      call(api.scheduleAssignSlot, { exam_id: s.examId, invitation_ids: ids, slot_id: slot.id });
    const full = await assign([a.anid, b.anid, c.anid]);
    expect([full.http, full.code]).toEqual([409, 'slot_full']);
    expect((await assign([a.anid, b.anid])).http).toBe(200);
    expect((await assign([c.anid])).code).toBe('slot_full');
    const slots = await ok<SlotListData>(api.scheduleSlots, { exam_id: s.examId });
    expect(slots.list.find((s) => s.id === slot.id)).toMatchObject({ capacity: 2, taken: 2 });
    const lower = await call(api.scheduleSlotUpdate, {
      exam_id: s.examId,
      slot_id: slot.id,
      start_at: slot.start_at,
      end_at: slot.end_at,
      capacity: 1,
    });
    expect([lower.http, lower.code]).toEqual([409, 'conflict']);
    const del = await call(api.scheduleSlotDelete, { exam_id: s.examId, slot_id: slot.id });
    expect([del.http, del.code]).toEqual([409, 'conflict']);
    expect(await listItem(a.token)).toMatchObject({
      window_source: 'slot',
      window_start: slot.start_at,
      slot: { id: slot.id, label: 'Afternoon' },
      state: 'not_started',
    });
    const early = await cand(a.token, 'POST', '/monitor/start-exam', { exam_id: s.examId, anid: a.anid });
    expect(early.code).toBe('exam_not_open');
    s.t.advance(HOUR + 90 * MINUTE);
    const attempt = await enter(a.token, a.anid);
    // Half an hour of the slot is left: the 60-minute attempt ends with the slot.
    expect(attempt.end_time).toBe(slot.end_at);
  });

  it('refuses a slot outside the exam window and one that closes before it opens', async () => {
    const exam = await ok<SlotListData>(api.scheduleSlots, { exam_id: s.examId });
    const outside = await call(api.scheduleSlotCreate, {
      exam_id: s.examId,
      start_at: exam.end_at - HOUR,
      end_at: exam.end_at + HOUR,
      capacity: 1,
    });
    expect([outside.http, outside.code]).toEqual([422, 'validation_error']);
    const backwards = await call(api.scheduleSlotCreate, {
      exam_id: s.examId,
      start_at: s.t.now() + 2 * HOUR,
      end_at: s.t.now() + HOUR,
      capacity: 1,
    });
    expect(backwards.http).toBe(422);
  });

  it('lets candidates choose only where the exam allows it, before their slot opens, and shows only seats left', async () => {
    const morning = await newSlot(s.t.now() + 3 * HOUR, 5, 'Morning');
    const evening = await newSlot(s.t.now() + 6 * HOUR, 5, 'Evening');
    const a = await candidate();
    await ok(api.scheduleSlotMode, { exam_id: s.examId, slot_mode: 'assigned' });
    const choose = (token: string, slotId: number) =>
      cand<{ slot: { id: number } }>(token, 'POST', '/exam/choose-slot', { exam_id: s.examId, slot_id: slotId });
    const assigned = await choose(a.token, morning.id);
    expect([assigned.http, assigned.code]).toEqual([409, 'slot_locked']);
    expect((await listItem(a.token)).slot_choosable).toBe(false);

    await ok(api.scheduleSlotMode, { exam_id: s.examId, slot_mode: 'chosen' });
    expect((await listItem(a.token)).slot_choosable).toBe(true);
    expect((await choose(a.token, morning.id)).data.slot.id).toBe(morning.id);
    const seen = await cand<CandidateSlotsData>(a.token, 'GET', `/exam/slots?exam_id=${s.examId}`);
    expect(seen.data.slot_id).toBe(morning.id);
    expect(seen.data.can_choose).toBe(true);
    // Seats left, never who holds them.
    for (const s of seen.data.list)
      expect(Object.keys(s).sort()).toEqual(['end_at', 'id', 'label', 'seats_left', 'start_at']);
    expect(seen.data.list.find((s) => s.id === morning.id)!.seats_left).toBe(4);
    // Changing is allowed until the slot opens.
    expect((await choose(a.token, evening.id)).data.slot.id).toBe(evening.id);
    expect((await choose(a.token, morning.id)).data.slot.id).toBe(morning.id);
    s.t.advance(3 * HOUR);
    const opened = await choose(a.token, evening.id);
    expect([opened.http, opened.code]).toEqual([409, 'slot_locked']);
    // Another candidate cannot pick a slot that has opened, nor another exam's slot.
    const b = await candidate();
    expect((await choose(b.token, morning.id)).code).toBe('slot_locked');
    expect((await choose(b.token, 999_999)).http).toBe(404);
    // A personal window overrides any slot: no choosing then.
    await accommodate([b.anid], { window: { start_at: s.t.now(), end_at: s.t.now() + HOUR } });
    expect((await choose(b.token, evening.id)).code).toBe('slot_locked');
    // The candidate's choice is in the audit log, by the system on the candidate's behalf.
    const entry = await lastAuditEntry(s.t, 'invitation.slot', a.anid);
    expect([entry.actor_kind, JSON.parse(entry.before!), JSON.parse(entry.after!)]).toEqual([
      'system',
      { slot_id: evening.id },
      { slot_id: morning.id },
    ]);
    await ok(api.scheduleSlotMode, { exam_id: s.examId, slot_mode: 'assigned' });
  });

  it('gives the last seat to one of two candidates racing for it; the other gets slot_full', async () => {
    await ok(api.scheduleSlotMode, { exam_id: s.examId, slot_mode: 'chosen' });
    for (let round = 0; round < 3; round++) {
      const slot = await newSlot(s.t.now() + 5 * HOUR, 1, `Race ${round}`);
      const a = await candidate();
      const b = await candidate();
      const results = await Promise.all(
        [a, b].map((x) => cand(x.token, 'POST', '/exam/choose-slot', { exam_id: s.examId, slot_id: slot.id })),
      );
      expect(results.map((r) => r.http).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.http === 409)!.code).toBe('slot_full');
      const taken = await s.t.db.handle.db
        .selectFrom('invitations')
        .select('id')
        .where('slot_id', '=', slot.id)
        .execute();
      expect(taken).toHaveLength(1);
    }
    await ok(api.scheduleSlotMode, { exam_id: s.examId, slot_mode: 'assigned' });
  });

  it('reopens a finished attempt with its answers; the candidate continues; the sweeper ends it again', async () => {
    const a = await candidate();
    const attempt = await enter(a.token, a.anid);
    const order = await cand<{ subject_order: { id: number; type: number }[] }>(
      a.token,
      'GET',
      `/subject/order-list?exam_id=${s.examId}`,
    );
    const q = order.data.subject_order.find((x) => x.type === QuestionType.single)!;
    const save = (option: string, seq: number) =>
      cand<{ version: number }>(a.token, 'POST', '/answer/answer', {
        exam_id: s.examId,
        subject_id: q.id,
        answer: { kind: 'choice', option },
        client_id: randomUUID(),
        seq,
        changed_at: s.t.now(),
      });
    expect((await save('A', 1)).http).toBe(200);
    // Still running: nothing to reopen.
    const running = await call(api.scheduleReopen, { attempt_id: attempt.id, reason: 'test', minutes: 5 });
    expect([running.http, running.code]).toEqual([409, 'attempt_not_reopenable']);
    s.t.advance(61 * MINUTE);
    expect(await s.t.services.attempts.sweepOverdue()).toBeGreaterThanOrEqual(1);
    expect((await s.t.services.attempts.byId(attempt.id))!.finish_reason).toBe('timeout');
    // It ran out of time: how long to give must be said.
    const noTime = await call(api.scheduleReopen, { attempt_id: attempt.id, reason: 'Power cut' });
    expect([noTime.http, noTime.code]).toEqual([422, 'validation_error']);
    const reopened = await ok<{ end_at: number }>(api.scheduleReopen, {
      attempt_id: attempt.id,
      reason: 'Power cut in hall 3',
      minutes: 10,
    });
    expect(reopened.end_at).toBe(s.t.now() + 10 * MINUTE);
    const row = (await s.t.services.attempts.byId(attempt.id))!;
    expect(row).toMatchObject({
      phase: 2,
      end_at: reopened.end_at,
      finished_at: null,
      finish_reason: null,
      score: null,
    });
    // The sweeper leaves it alone while its new time runs.
    expect(await s.t.services.attempts.sweepOverdue()).toBe(0);
    // The candidate logs in again and continues where they were, the answer kept.
    const again = await s.t.loginCandidate(a.phone);
    const resumed = await cand<{ attempt: AttemptView }>(again, 'POST', '/monitor/start-exam', {
      exam_id: s.examId,
      anid: a.anid,
      phase: 2,
    });
    expect(resumed.data.attempt).toMatchObject({ id: attempt.id, phase: 2, end_time: reopened.end_at });
    expect((await listItem(again)).state).toBe('in_progress');
    expect((await save('B', 2)).data.version).toBe(2);
    s.t.advance(10 * MINUTE);
    expect(await s.t.services.attempts.sweepOverdue()).toBe(1);
    const ended = (await s.t.services.attempts.byId(attempt.id))!;
    expect(ended).toMatchObject({ phase: 3, finish_reason: 'timeout' });
    const stored = await s.t.db.handle.db
      .selectFrom('answers')
      .select('value')
      .where('attempt_id', '=', attempt.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.value)).toMatchObject({ option: 'B' });
    const entry = await lastAuditEntry(s.t, 'attempt.reopen', attempt.id);
    expect(entry.detail).toBe('Power cut in hall 3');
  });

  it('reopens a submitted attempt for the time it still had when left out', async () => {
    const a = await candidate();
    const attempt = await enter(a.token, a.anid);
    s.t.advance(20 * MINUTE);
    expect((await cand(a.token, 'POST', '/monitor/finish-exam', { exam_id: s.examId })).http).toBe(200);
    s.t.advance(HOUR);
    const reopened = await ok<{ end_at: number }>(api.scheduleReopen, {
      attempt_id: attempt.id,
      reason: 'Submitted by mistake',
    });
    expect(reopened.end_at).toBe(s.t.now() + 40 * MINUTE);
  });

  it('checks every bulk invitation belongs to the exam', async () => {
    const res = await call(api.scheduleAccommodations, {
      exam_id: s.examId,
      invitation_ids: [999_999],
      extra: { mode: 'minutes', value: 5 },
    });
    expect([res.http, res.code]).toEqual([404, 'not_found']);
    const tooMuch = await call(api.scheduleAccommodations, {
      exam_id: s.examId,
      invitation_ids: [1],
      extra: { mode: 'percent', value: 401 },
    });
    expect(tooMuch.http).toBe(422);
  });

  it('lists invitations paged, filtered by slot and phone', async () => {
    const slot = await newSlot(s.t.now() + 8 * HOUR, 3, 'Paged');
    const a = await candidate();
    await ok(api.scheduleAssignSlot, { exam_id: s.examId, invitation_ids: [a.anid], slot_id: slot.id });
    const inSlot = await ok<InvitationListData>(api.scheduleInvitations, { exam_id: s.examId, slot: slot.id });
    expect(inSlot).toMatchObject({
      total: 1,
      list: [{ id: a.anid, slot_id: slot.id, effective_start: slot.start_at }],
    });
    const page = await ok<InvitationListData>(api.scheduleInvitations, {
      exam_id: s.examId,
      page: 2,
      page_size: 2,
      sort: 'phone',
      order: 'desc',
    });
    expect(page.list).toHaveLength(2);
    expect(page.total).toBeGreaterThan(4);
  });
});
