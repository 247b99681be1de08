/**
 * Login codes paced to the SMS provider, on both databases and both limiters, with a clock and timers of the
 * test's own: a burst beyond the rate reaches the provider spread at the rate, each code once; a queued call
 * answers at once with its delay; past the longest wait the call is refused; a refused send lets the candidate
 * ask again at once; texts get what login codes leave of the provider's rate; no code is ever logged.
 */
import { randomBytes } from 'node:crypto';
import { SMS_RULES } from '@examhall/contract';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../ratelimit/limiter.js';
import type { SmsCode, SmsMessage, SmsSender } from '../sms/sender.js';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import { requirePart, TEST_REDIS_URL } from '../test/parts.js';
import { CandidateAuthService, type Later } from './candidateAuth.js';
import { CandidateSessions } from './candidateSessions.js';
import { CandidateRepository } from '../repositories/candidates.js';
import { InProcessNotifier } from '../proctoring/notifier.js';
import type { ServiceLog } from '../log.js';
import { SMS_BUDGET_DEFAULTS, SmsBudget } from './smsBudget.js';
import { SmsPacer, type SmsPacing } from './smsPacing.js';
import { TokenService } from './tokens.js';

const redisHere = await requirePart('redis');
const redis = redisHere ? new Redis(TEST_REDIS_URL) : null;
afterAll(() => redis?.disconnect());

const limiters: [string, (clock: () => number) => RateLimiter][] = [
  ['in-process limiter', (clock) => new MemoryRateLimiter(clock)],
  ...(redis
    ? [
        ['Redis limiter', () => new RedisRateLimiter(redis, `examhall:test:${randomBytes(4).toString('hex')}:`)] as [
          string,
          () => RateLimiter,
        ],
      ]
    : []),
];
const cases = (await testedDialects()).flatMap((d) => limiters.map(([name, make]) => ({ d, name, make })));

/** 10 codes a second, a wait of at most 3 s: 31 turns (now, then every 100 ms up to 3 s). */
const PACING: SmsPacing = { rate: 10, loginRate: 10, loginMaxWaitMs: 3_000 };
const phoneOf = (i: number) => `1380000${String(i).padStart(4, '0')}`;

describe.each(cases)('login codes paced on $d with the $name', ({ d, make }) => {
  let db: TestDb;
  let now: number;
  let timers: { at: number; run: () => void; cancelled: boolean }[];
  let sent: { at: number; message: SmsCode }[];
  let refuse: boolean;
  let logs: string[];
  let limiter: RateLimiter;

  const clock = () => now;
  const later: Later = (ms, run) => {
    const timer = { at: now + ms, run, cancelled: false };
    timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  };
  const provider: SmsSender = {
    async send(m: SmsMessage) {
      if (m.purpose !== 'login') throw new Error('not a login code');
      if (refuse) throw new Error('provider answered 503');
      sent.push({ at: now, message: m });
    },
  };
  const line = (level: string) => (obj: unknown, msg?: string) => logs.push(`${level} ${JSON.stringify(obj)} ${msg}`);
  const log = {
    fatal: line('fatal'),
    error: line('error'),
    warn: line('warn'),
    info: line('info'),
    debug: line('debug'),
    trace: line('trace'),
  } as unknown as ServiceLog;

  const service = (pacing: SmsPacing = PACING) =>
    new CandidateAuthService({
      db: db.handle.db,
      limiter,
      sms: provider,
      pacer: new SmsPacer(limiter, pacing),
      budget: new SmsBudget(SMS_BUDGET_DEFAULTS, clock),
      tokens: new TokenService(db.handle.db, clock),
      sessions: new CandidateSessions(
        (hash, at) => new CandidateRepository(db.handle.db).findByTokenHash(hash, at),
        new InProcessNotifier(),
        clock,
      ),
      clock,
      log,
      later,
    });

  /** Moves the clock through every timer due by `until`, in order, and lets the sends they start finish. */
  async function runUntil(auth: CandidateAuthService, until: number): Promise<void> {
    for (;;) {
      const next = timers.filter((t) => !t.cancelled && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      timers.splice(timers.indexOf(next), 1);
      now = next.at;
      next.run();
      await auth.idle();
    }
    now = until;
  }

  beforeEach(async () => {
    db = await openTestDb(d);
    limiter = make(clock);
    // Whole seconds apart per test, so that the Redis limiter's queues of earlier tests are long past.
    now = Date.UTC(2026, 10, 21, 2, 0, 0) + Math.floor(Math.random() * 1e6) * 1000;
    timers = [];
    sent = [];
    refuse = false;
    logs = [];
  });
  afterEach(async () => {
    await db.drop();
  });

  it('sends a burst beyond the rate paced at the rate, each code once; a queued call answers at once with its delay', async () => {
    const auth = service();
    const start = now;
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await auth.sendCode('86', phoneOf(i), `10.0.${i}.1`));
    // The first went during its call; the others wait for their turns, told about when.
    expect(answers[0]).toEqual({ resend_after: 60, expires_in: 300, delay: 0 });
    expect(sent.map((s) => s.message.phone)).toEqual([phoneOf(0)]);
    expect(answers[1]).toEqual({ resend_after: 61, expires_in: 301, delay: 1 });
    expect(answers[24]).toEqual({ resend_after: 63, expires_in: 303, delay: 3 });

    await runUntil(auth, start + 10_000);
    expect(sent.map((s) => s.message.phone)).toEqual(answers.map((_, i) => phoneOf(i)));
    expect(sent.map((s) => s.at - start)).toEqual(answers.map((_, i) => i * 100));
    expect(new Set(sent.map((s) => s.message.code)).size).toBe(25);

    // Each queued code logs in, within its life counted from when it went out.
    now = start + 2_400 + SMS_RULES.codeTtlMs - 1;
    const last = sent[24]!.message;
    const { candidate } = await auth.login('86', last.phone, last.code, '10.0.0.9');
    expect(candidate.phone).toBe(last.phone);
  });

  it('refuses, past the longest wait, with sms_queue_full, stores nothing for it and keeps the queue as it was', async () => {
    const auth = service();
    const start = now;
    for (let i = 0; i <= 30; i++) await auth.sendCode('86', phoneOf(i), `10.0.${i}.1`);
    await expect(auth.sendCode('86', phoneOf(31), '10.0.0.2')).rejects.toMatchObject({
      code: 'sms_queue_full',
      status: 429,
    });
    const stored = await db.handle.db.selectFrom('sms_codes').select('phone').execute();
    expect(stored).toHaveLength(31);
    // A refusal takes no turn: 100 ms later the queue has room for exactly one more.
    now = start + 100;
    expect((await auth.sendCode('86', phoneOf(31), '10.0.0.2')).delay).toBe(3);
    await expect(auth.sendCode('86', phoneOf(32), '10.0.0.2')).rejects.toMatchObject({ code: 'sms_queue_full' });
    expect(logs.some((l) => l.includes('queue is full') && l.includes('138****0032'))).toBe(true);
  });

  it('lets the candidate ask again at once after a refused send, queued or not, and logs it without the code or the whole phone', async () => {
    const auth = service();
    refuse = true;
    await expect(auth.sendCode('86', phoneOf(1), '10.0.0.1')).rejects.toMatchObject({ code: 'sms_delivery_failed' });
    const queued = await auth.sendCode('86', phoneOf(2), '10.0.0.1');
    expect(queued.delay).toBe(1);
    await runUntil(auth, now + 1_000);
    expect(sent).toEqual([]);
    const failed = await db.handle.db.selectFrom('sms_codes').select(['phone', 'failed_at']).execute();
    expect(failed.every((r) => r.failed_at !== null)).toBe(true);

    refuse = false;
    for (const i of [1, 2]) expect((await auth.sendCode('86', phoneOf(i), '10.0.0.1')).resend_after).toBeGreaterThan(0);
    await runUntil(auth, now + 1_000);
    expect(sent.map((s) => s.message.phone).sort()).toEqual([phoneOf(1), phoneOf(2)]);

    const refusals = logs.filter((l) => l.includes('not delivered'));
    expect(refusals).toHaveLength(2);
    expect(refusals.join('\n')).toContain('138****0002');
    expect(refusals.join('\n')).not.toContain(phoneOf(2));
    // No code, sent or refused, appears in any log line.
    for (const s of sent) for (const l of logs) expect(l).not.toContain(s.message.code);
  });

  it('holds the resend interval from when a queued code goes out', async () => {
    const auth = service();
    await auth.sendCode('86', phoneOf(0), '10.0.0.1');
    await auth.sendCode('86', phoneOf(1), '10.0.0.1');
    await auth.sendCode('86', phoneOf(2), '10.0.0.1');
    // phone 2 goes out 200 ms from now: 60 s from now is still 200 ms too early.
    now += SMS_RULES.resendIntervalMs;
    await expect(auth.sendCode('86', phoneOf(2), '10.0.0.1')).rejects.toMatchObject({ code: 'sms_too_frequent' });
    now += 200;
    await runUntil(auth, now);
    expect((await auth.sendCode('86', phoneOf(2), '10.0.0.1')).delay).toBe(0);
  });

  it('records codes still queued at shutdown as unsent, so their candidates may ask again at once', async () => {
    const auth = service();
    await auth.sendCode('86', phoneOf(0), '10.0.0.1');
    await auth.sendCode('86', phoneOf(1), '10.0.0.1');
    await auth.close();
    await runUntil(auth, now + 10_000);
    expect(sent.map((s) => s.message.phone)).toEqual([phoneOf(0)]);
    const again = service();
    expect((await again.sendCode('86', phoneOf(1), '10.0.0.1')).delay).toBe(0);
    await expect(again.sendCode('86', phoneOf(0), '10.0.0.1')).rejects.toMatchObject({ code: 'sms_too_frequent' });
  });

  it('leaves invitations and reminders what login codes do not take of the provider rate', async () => {
    const second = Math.ceil(now / 1000) * 1000;
    now = second;
    const pacer = new SmsPacer(limiter, { rate: 10, loginRate: 5, loginMaxWaitMs: 3_000 });
    expect(await pacer.textBudget(now, 1_000)).toBe(10);
    for (let i = 0; i < 4; i++) expect(await pacer.loginTurn(now)).toBe(second + i * 200);
    expect(await pacer.textBudget(now, 1_000)).toBe(6);
    // A wave: login codes take their whole share of this second and the next ones, texts the rest.
    for (let i = 0; i < 14; i++) await pacer.loginTurn(now);
    expect(await pacer.textBudget(now, 1_000)).toBe(5);
    expect(await pacer.textBudget(second + 1_000, 1_000)).toBe(5);
    // The wait is bounded at 3 s: the last turn given is at 3 s, later ones were refused and count nowhere.
    expect(await pacer.textBudget(second + 3_000, 1_000)).toBe(9);
    expect(await pacer.textBudget(second + 4_000, 1_000)).toBe(10);
  });

  it('sends every code in its request with SMS_LOGIN_RATE 0', async () => {
    const auth = service({ rate: 10, loginRate: 0, loginMaxWaitMs: 0 });
    for (let i = 0; i < 15; i++) expect((await auth.sendCode('86', phoneOf(i), '10.0.0.1')).delay).toBe(0);
    expect(sent).toHaveLength(15);
  });
});
