import { CHECK_IN_MINUTES } from '@examhall/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { enterExam, passChecks } from '../test/checks.js';
import { testedDialects } from '../test/db.js';

const MINUTE = 60_000;

/**
 * A campus exam's start wave: candidates check in (the device checks) before the window opens and enter at the
 * opening; entering is paced across processes so that everyone pressing start in the same second waits in a
 * queue that tells them their place, instead of timing out.
 */
describe.each(await testedDialects())('the start wave on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t?.close());

  const start = (token: string, examId: number, anid: number, phase?: 2) =>
    t.app.inject({
      method: 'POST',
      url: `/api/monitor/start-exam?auth=${token}`,
      payload: { exam_id: examId, anid, ...(phase ? { phase } : {}) },
    });

  /** The seeded exam moved to open `minutes` from now. */
  async function opensIn(examId: number, minutes: number): Promise<number> {
    const opens = t.now() + minutes * MINUTE;
    await t.db.handle.db
      .updateTable('exams')
      .set({ start_at: opens, end_at: opens + 3 * 60 * MINUTE })
      .where('id', '=', examId)
      .execute();
    t.advance(11_000); // past the exam catalogue's time to live
    return opens;
  }

  it('lets candidates check in from CHECK_IN_MINUTES before the opening, and enter only at it', async () => {
    t = await createTestApp(dialect);
    const { examId, anid } = await t.seed('13800138000');
    const token = await t.loginCandidate('13800138000');
    const opens = await opensIn(examId, CHECK_IN_MINUTES + 5);

    // Too early even for the checks: told when the exam opens and when the check-in does.
    const early = await start(token, examId, anid);
    expect([early.statusCode, body(early).code]).toEqual([409, 'exam_not_open']);
    expect(body(early).data).toEqual({ opens_at: opens, check_in_at: opens - CHECK_IN_MINUTES * MINUTE });

    // Within the check-in: the attempt, its draw and the checks; entering waits for the opening.
    t.advance(6 * MINUTE);
    const checkIn = await start(token, examId, anid);
    expect(checkIn.statusCode, checkIn.body).toBe(200);
    expect(body<{ attempt: { phase: number } }>(checkIn).data.attempt.phase).toBe(1);
    await passChecks(t, token, examId, anid);
    const before = await start(token, examId, anid, 2);
    expect([before.statusCode, body(before).code]).toEqual([409, 'exam_not_open']);
    expect(body(before).data).toEqual({ opens_at: opens });

    // At the opening the same press enters, and the clock runs from now.
    t.advance(opens - t.now());
    const entered = await start(token, examId, anid, 2);
    expect(entered.statusCode, entered.body).toBe(200);
    const attempt = body<{ attempt: { phase: number; create_time: number } }>(entered).data.attempt;
    expect(attempt.phase).toBe(2);
    expect(attempt.create_time).toBe(opens);
  });

  it('paces entries to ADMISSION_RATE: the next ones are told their place and turn, keep it, and enter when it comes', async () => {
    t = await createTestApp(dialect, { env: { ADMISSION_RATE: '2' } });
    const { examId, anid } = await t.seed('13800138000');
    const phones = ['13800138000', '13800138001', '13800138002', '13800138003', '13800138004'];
    const anids = new Map<string, number>();
    for (const p of phones.slice(1)) anids.set(p, await t.invite(examId, p));
    anids.set(phones[0]!, anid);
    const tokens = new Map<string, string>();
    for (const p of phones) {
      const tok = await t.loginCandidate(p);
      tokens.set(p, tok);
      await passChecks(t, tok, examId, anids.get(p)!);
    }
    // Everyone presses start in the same instant: a second's worth (two, and the one at the instant) enter.
    const first = await Promise.all(phones.map((p) => start(tokens.get(p)!, examId, anids.get(p)!, 2)));
    const codes = first.map((r) => body(r).code ?? 'ok');
    expect(codes.filter((c) => c === 'ok')).toHaveLength(3);
    const waiting = first.flatMap((r, i) => (r.statusCode === 429 ? [phones[i]!] : []));
    expect(waiting).toHaveLength(2);
    const told = waiting.map((p) => body<null>(first[phones.indexOf(p)]!).data as unknown as Record<string, number>);
    for (const r of first.filter((x) => x.statusCode === 429)) expect(body(r).code).toBe('admission_queue');
    // Places 1 and 2, half a second apart (two a second).
    expect(told.map((d) => d.place).sort()).toEqual([1, 2]);
    expect(told.map((d) => Number(d.retry_after_ms)).sort((a, b) => a - b)).toEqual([500, 1000]);

    // Asking again at once keeps the place; once the turn has come, the candidate enters.
    const [soon, later] = told[0]!.place === 1 ? waiting : [waiting[1]!, waiting[0]!];
    const again = await start(tokens.get(later!)!, examId, anids.get(later!)!, 2);
    expect((body(again).data as unknown as Record<string, number>).place).toBe(2);
    t.advance(500);
    expect((await start(tokens.get(soon!)!, examId, anids.get(soon!)!, 2)).statusCode).toBe(200);
    expect((await start(tokens.get(later!)!, examId, anids.get(later!)!, 2)).statusCode).toBe(429);
    t.advance(500);
    expect((await start(tokens.get(later!)!, examId, anids.get(later!)!, 2)).statusCode).toBe(200);
    // Entering again after entering is no new entry: it answers the running attempt at once.
    expect((await enterExam(t, tokens.get(phones[0]!)!, examId, anids.get(phones[0]!)!)).statusCode).toBe(200);
  });
});
