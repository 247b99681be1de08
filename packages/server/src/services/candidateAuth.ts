import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { AUTH_COOKIE_DAYS, SMS_RULES, storedDegree, type GetInfoData, type SendMsgData } from '@examhall/contract';
import type { ServiceLog } from '../log.js';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { CandidateRepository, type Candidate } from '../repositories/candidates.js';
import { SmsCodeRepository } from '../repositories/smsCodes.js';
import type { SmsCode, SmsSender } from '../sms/sender.js';
import { maskPhone } from './proctor.js';
import type { BudgetedText, Counted, SmsBudget } from './smsBudget.js';
import type { SmsPacer } from './smsPacing.js';
import type { CandidateSessions } from './candidateSessions.js';
import type { TokenService } from './tokens.js';

/** Login attempts allowed from one IP address per window (codes are also limited per code). */
const LOGIN_IP_LIMIT = { max: 60, windowMs: 10 * 60_000 };

function hashCode(areaCode: string, phone: string, code: string): Buffer {
  return createHash('sha256').update(`${areaCode}:${phone}:${code}`).digest();
}

/** Runs `run` after `ms` milliseconds; answers a function that cancels it. */
export type Later = (ms: number, run: () => void) => () => void;

const realLater: Later = (ms, run) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/** Dependencies of candidate login. */
export interface CandidateAuthDeps {
  db: Db;
  limiter: RateLimiter;
  sms: SmsSender;
  /** The provider's budget: when each login code may go. */
  pacer: SmsPacer;
  /** How many texts a phone may get (smsBudget.ts): a login code's interval and daily limits are its budgets. */
  budget: SmsBudget;
  tokens: TokenService;
  /** The candidates behind tokens, kept per process (candidateSessions.ts). */
  sessions: CandidateSessions;
  clock: () => number;
  log: ServiceLog;
  /** Timers of queued sends (default: setTimeout); tests move a clock of their own. */
  later?: Later;
}

/** Candidate login by SMS code, and the candidate behind a token. */
export class CandidateAuthService {
  private readonly codes: SmsCodeRepository;
  private readonly candidates: CandidateRepository;
  private readonly later: Later;
  /**
   * Codes waiting for their turn at the provider, by code id, with what cancels the send and what the code was
   * counted in: held only here, in memory, never stored in clear.
   */
  private readonly queued = new Map<number, { cancel: () => void; counted: Counted[] }>();
  /** Queued sends under way. */
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly deps: CandidateAuthDeps) {
    this.codes = new SmsCodeRepository(deps.db);
    this.candidates = new CandidateRepository(deps.db);
    this.later = deps.later ?? realLater;
  }

  /**
   * Sends a login code, within the per-IP limit and the phone's budgets (one code per interval, a few a day, and
   * the phone's texts a day, all purposes together: smsBudget.ts), at its turn at the provider: now during the
   * call, or later in the background, the answer then saying when (`delay`); a turn further away than the longest
   * wait is refused (sms_queue_full). The resend interval and the code's life count from its turn.
   */
  async sendCode(areaCode: string, phone: string, ip: string): Promise<SendMsgData> {
    const now = this.deps.clock();
    const ipHit = await this.deps.limiter.hit(`sms:ip:${ip}`, SMS_RULES.ipLimit, SMS_RULES.ipWindowMs);
    if (!ipHit.allowed) throw fail('rate_limited');

    const text: BudgetedText = { purpose: 'login', area_code: areaCode, phone };
    const [verdict] = await this.deps.budget.take(this.deps.db, [text]);
    if (verdict!.held !== null) throw this.deps.budget.loginRefusal(verdict!);
    let counted = verdict!.counted;

    const at = await this.deps.pacer.loginTurn(now);
    if (at === null) {
      // Refused before anything went: the code holds no limit.
      await this.deps.budget.giveBack(this.deps.db, counted);
      this.deps.log.warn({ phone: maskPhone(phone) }, 'SMS login code refused: the provider queue is full');
      throw fail('sms_queue_full');
    }
    counted = await this.deps.budget.postpone(this.deps.db, text, counted, at);
    const code = String(randomInt(0, 10 ** SMS_RULES.codeLength)).padStart(SMS_RULES.codeLength, '0');
    const id = await this.codes.insert({
      area_code: areaCode,
      phone,
      code_hash: hashCode(areaCode, phone, code).toString('hex'),
      ip,
      created_at: now,
      send_at: at,
      expires_at: at + SMS_RULES.codeTtlMs,
      attempts: 0,
    });
    const message: SmsCode = { area_code: areaCode, phone, code, purpose: 'login' };
    if (at <= now) {
      if (!(await this.deliver(id, message, counted))) throw fail('sms_delivery_failed');
    } else {
      this.queue(id, message, at - now, counted);
    }
    return {
      resend_after: Math.ceil((at - now + SMS_RULES.resendIntervalMs) / 1000),
      expires_in: Math.ceil((at - now + SMS_RULES.codeTtlMs) / 1000),
      delay: Math.ceil((at - now) / 1000),
    };
  }

  /** Sends a code at its turn, from memory. */
  private queue(id: number, message: SmsCode, ms: number, counted: Counted[]): void {
    const cancel = this.later(ms, () => {
      this.queued.delete(id);
      const sent = this.deliver(id, message, counted)
        .then(() => undefined)
        .catch((err: unknown) =>
          this.deps.log.error({ err, code_id: id }, 'SMS login code: recording its outcome failed'),
        )
        .finally(() => this.sending.delete(sent));
      this.sending.add(sent);
    });
    this.queued.set(id, { cancel, counted });
  }

  /**
   * Hands a code to the provider; a refusal is recorded and what the code was counted in given back (it then
   * holds no limit, so the candidate may ask again at once), and logged without the code or the whole phone number.
   */
  private async deliver(id: number, message: SmsCode, counted: readonly Counted[]): Promise<boolean> {
    try {
      await this.deps.sms.send(message);
      return true;
    } catch (err) {
      await this.codes.markFailed([id], this.deps.clock());
      await this.deps.budget.giveBack(this.deps.db, counted);
      this.deps.log.warn(
        { code_id: id, phone: maskPhone(message.phone), reason: (err as Error).message || String(err) },
        'SMS login code not delivered; the candidate may ask for another at once',
      );
      return false;
    }
  }

  /** Resolves once the queued sends that have started have finished and their outcome is recorded. */
  async idle(): Promise<void> {
    while (this.sending.size > 0) await Promise.all(this.sending);
  }

  /**
   * Stops: queued codes are not sent by this process, and are recorded as refused so their candidates may ask
   * again at once (from any process); sends under way finish.
   */
  async close(): Promise<void> {
    const left = [...this.queued];
    const ids = left.map(([id]) => id);
    for (const [, q] of left) q.cancel();
    this.queued.clear();
    await this.idle();
    await this.codes.markFailed(ids, this.deps.clock());
    for (const [, q] of left) await this.deps.budget.giveBack(this.deps.db, q.counted);
    if (ids.length > 0) this.deps.log.warn({ codes: ids.length }, 'SMS login codes left unsent at shutdown');
  }

  /** Checks the latest code; creates the candidate on first login and issues a token. */
  async login(
    areaCode: string,
    phone: string,
    code: string,
    ip: string,
  ): Promise<{ token: string; expiresAt: number; candidate: Candidate }> {
    const ipHit = await this.deps.limiter.hit(`login:ip:${ip}`, LOGIN_IP_LIMIT.max, LOGIN_IP_LIMIT.windowMs);
    if (!ipHit.allowed) throw fail('rate_limited');

    const now = this.deps.clock();
    const latest = await this.codes.latest(areaCode, phone);
    if (!latest) throw fail('sms_code_invalid', 'no verification code was sent to this phone, please request one');
    if (latest.consumed_at !== null || latest.expires_at <= now) throw fail('sms_code_expired');
    if (latest.attempts >= SMS_RULES.maxWrongTries) throw fail('sms_code_exhausted');

    const given = hashCode(areaCode, phone, code);
    if (!timingSafeEqual(given, Buffer.from(latest.code_hash, 'hex'))) {
      const attempts = await this.codes.addAttempt(latest.id);
      if (attempts >= SMS_RULES.maxWrongTries) throw fail('sms_code_exhausted');
      const left = SMS_RULES.maxWrongTries - attempts;
      throw fail('sms_code_invalid', `wrong verification code, ${left} tries left`, { tries_left: left });
    }
    if (!(await this.codes.consume(latest.id, now))) throw fail('sms_code_expired');

    const candidate = await this.findOrCreate(areaCode, phone, now);
    const { token, expiresAt } = await this.deps.tokens.issue('candidate', candidate.id, AUTH_COOKIE_DAYS * 86_400_000);
    return { token, expiresAt, candidate };
  }

  private async findOrCreate(areaCode: string, phone: string, now: number): Promise<Candidate> {
    const existing = await this.candidates.findByPhone(areaCode, phone);
    if (existing) {
      await this.candidates.touchLogin(existing.id, now);
      this.deps.sessions.changed(existing.id);
      return existing;
    }
    try {
      return await this.candidates.create(areaCode, phone, now);
    } catch (err) {
      // Two first logins at once: the unique constraint lets one create, the other finds it.
      const raced = await this.candidates.findByPhone(areaCode, phone);
      if (raced) return raced;
      throw err;
    }
  }

  /** The candidate behind a token, or null. */
  resolve(token: string | undefined): Promise<Candidate | null> {
    return this.deps.sessions.resolve(token);
  }

  /** Revokes the token. */
  async logout(token: string): Promise<void> {
    await this.deps.tokens.revoke(token);
    this.deps.sessions.revoked(token);
  }

  /** What /user/get-info answers. */
  info(c: Candidate): GetInfoData {
    return {
      id: c.id,
      user_id: c.id,
      phone: c.phone,
      area_code: c.area_code,
      info: c.name && c.school ? 1 : 0,
      userInfo: {
        name: c.name,
        school: c.school,
        major: c.major,
        degree: storedDegree(c.degree),
        graduation_year: c.graduation_year,
      },
    };
  }
}
