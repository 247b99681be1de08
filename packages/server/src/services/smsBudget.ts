import { SMS_LIMITS, SMS_RULES, serverDayStart, type ErrorCode, type HeldBy, type SmsLimit } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail, type AppError } from '../errors.js';
import { SmsBudgetRepository, type BudgetCounter } from '../repositories/smsBudget.js';

/** The budgets' figures (SMS_RESEND_INTERVAL_MINUTES, SMS_RESEND_DAILY, SMS_PHONE_DAILY, SMS_EXAM_DAILY, SMS_TEAM_DAILY). */
export interface SmsBudgets {
  /** An invitation's resends go at most one per this many ms; 0: no interval. */
  resendIntervalMs: number;
  /** An invitation's resends a day. */
  resendDaily: number;
  /** Texts to one phone a day, every purpose together, login codes included. */
  phoneDaily: number;
  /** Texts to one exam's candidates a day (login codes aside). */
  examDaily: number;
  /** Texts to the candidates of one team's exams a day (login codes aside). */
  teamDaily: number;
}

/** The figures a first-time operator runs with. */
export const SMS_BUDGET_DEFAULTS: SmsBudgets = {
  resendIntervalMs: 5 * 60_000,
  resendDaily: 3,
  phoneDaily: 20,
  examDaily: 50_000,
  teamDaily: 200_000,
};

/** Every budget: those that hold back texts to candidates (SMS_LIMITS) and a phone's login codes' own. */
export type BudgetName = SmsLimit | 'login_interval' | 'login_daily';

/** A text about to go out, as its budgets see it. */
export type BudgetedText =
  | { purpose: 'login'; area_code: string; phone: string }
  | {
      purpose: 'invitation' | 'reminder' | 'resend';
      area_code: string;
      phone: string;
      invitation_id: number;
      exam_id: number;
      /** The exam's team; an exam of no team has no team budget. */
      team_id: number | null;
    };

/** A counter a text was counted in and the window it was counted in, to give it back. */
export interface Counted {
  key: string;
  window_ends: number;
}

/** What the budgets said of one text: counted (it may go), or held back by the first budget that was used up. */
export type Verdict = { held: null; counted: Counted[] } | { held: BudgetName; retryAt: number; counted: [] };

/** One budget a text counts in. */
interface Budget {
  name: BudgetName;
  key: string;
  max: number;
  /** Where a window starting now ends. */
  windowEnds: number;
  /** Set for a budget per interval (its window starts at the text, not at midnight). */
  intervalMs?: number;
}

/** The error a call answers when budgets held back every text it would send, by the budget that held the most. */
const LIMIT_ERRORS: Record<SmsLimit, ErrorCode> = {
  resend_interval: 'sms_resend_too_frequent',
  resend_daily: 'sms_resend_daily_limit',
  phone_daily: 'sms_phone_daily_limit',
  exam_daily: 'sms_exam_daily_limit',
  team_daily: 'sms_team_daily_limit',
};

/** Counters removed in one go by `prune`. */
const PRUNE_BATCH = 10_000;

/**
 * The one rule of how many texts go out: every text the product sends (a login code, an invitation, a reminder, a
 * resend) is counted against each budget it falls under before it goes, and one that would pass a budget is held
 * back. A login code: one per phone per SMS_RULES.resendIntervalMs from when it goes out, SMS_RULES.dailyCapPerPhone
 * a day. A resend: one per invitation per `resendIntervalMs`, `resendDaily` a day. Every text: `phoneDaily` per
 * phone a day, all purposes together; and texts to candidates `examDaily` per exam and `teamDaily` per team a day.
 * Days are the server's (UTC+8). Counters live in the database and are taken inside the sender's transaction
 * (repositories/smsBudget.ts), so concurrent senders in any process never pass a budget together.
 */
export class SmsBudget {
  constructor(
    readonly budgets: SmsBudgets,
    private readonly clock: () => number,
  ) {}

  /** The budgets `text` counts in, first the one whose refusal says most (a login code's interval before its day). */
  private budgetsOf(text: BudgetedText, now: number): Budget[] {
    const dayEnds = serverDayStart(now) + 86_400_000;
    const b = this.budgets;
    const phone = `${text.area_code} ${text.phone}`;
    const phoneDaily: Budget = {
      name: 'phone_daily',
      key: `phone_daily:${phone}`,
      max: b.phoneDaily,
      windowEnds: dayEnds,
    };
    if (text.purpose === 'login') {
      const interval = SMS_RULES.resendIntervalMs;
      return [
        {
          name: 'login_interval',
          key: `login_interval:${phone}`,
          max: 1,
          windowEnds: now + interval,
          intervalMs: interval,
        },
        { name: 'login_daily', key: `login_daily:${phone}`, max: SMS_RULES.dailyCapPerPhone, windowEnds: dayEnds },
        phoneDaily,
      ];
    }
    const out: Budget[] = [];
    if (text.purpose === 'resend') {
      const id = text.invitation_id;
      if (b.resendIntervalMs > 0)
        out.push({
          name: 'resend_interval',
          key: `resend_interval:${id}`,
          max: 1,
          windowEnds: now + b.resendIntervalMs,
          intervalMs: b.resendIntervalMs,
        });
      out.push({ name: 'resend_daily', key: `resend_daily:${id}`, max: b.resendDaily, windowEnds: dayEnds });
    }
    out.push(phoneDaily);
    out.push({ name: 'exam_daily', key: `exam_daily:${text.exam_id}`, max: b.examDaily, windowEnds: dayEnds });
    if (text.team_id !== null)
      out.push({ name: 'team_daily', key: `team_daily:${text.team_id}`, max: b.teamDaily, windowEnds: dayEnds });
    return out;
  }

  /**
   * Counts texts against their budgets, in order: each is counted in all of its budgets when every one has room,
   * else in none and held back by the first that has none. Runs in `db`'s transaction, or one of its own: the
   * caller that stores the texts passes its own, so that a text is counted exactly when it is stored.
   */
  async take(db: Db, texts: readonly BudgetedText[]): Promise<Verdict[]> {
    if (texts.length === 0) return [];
    if (!db.isTransaction) return db.transaction().execute((trx) => this.take(trx, texts));
    const now = this.clock();
    const wanted = texts.map((t) => this.budgetsOf(t, now));
    const fresh = new Map<string, number>();
    for (const budgets of wanted) for (const b of budgets) fresh.set(b.key, b.windowEnds);
    const repo = new SmsBudgetRepository(db);
    const counters = await repo.lock(
      [...fresh].map(([key, window_ends]) => ({ key, window_ends })),
      now,
    );
    const counter = (key: string): BudgetCounter => counters.get(key)!;
    const changed = new Set<string>();
    const verdicts = wanted.map((budgets): Verdict => {
      const full = budgets.find((b) => counter(b.key).used >= b.max);
      if (full) return { held: full.name, retryAt: counter(full.key).window_ends, counted: [] };
      for (const b of budgets) {
        const c = counter(b.key);
        // A window opens with the first text counted in it: an interval runs from the last text that went.
        if (c.used === 0) c.window_ends = b.windowEnds;
        c.used++;
        changed.add(b.key);
      }
      return { held: null, counted: budgets.map((b) => ({ key: b.key, window_ends: counter(b.key).window_ends })) };
    });
    await repo.store([...changed].map(counter));
    return verdicts;
  }

  /** Gives back what a text that did not go out was counted in (a refused login code holds no limit). */
  async giveBack(db: Db, counted: readonly Counted[]): Promise<void> {
    if (counted.length > 0) await new SmsBudgetRepository(db).giveBack(counted);
  }

  /** A text that goes out at `at` rather than now: its intervals run from then. Answers what it is counted in now. */
  async postpone(db: Db, text: BudgetedText, counted: readonly Counted[], at: number): Promise<Counted[]> {
    const now = this.clock();
    if (at <= now) return [...counted];
    const repo = new SmsBudgetRepository(db);
    const intervals = new Map(
      this.budgetsOf(text, now)
        .filter((b) => b.intervalMs !== undefined)
        .map((b) => [b.key, b.intervalMs!]),
    );
    const out: Counted[] = [];
    for (const c of counted) {
      const ms = intervals.get(c.key);
      if (ms === undefined) {
        out.push(c);
        continue;
      }
      await repo.moveWindow(c.key, c.window_ends, at + ms);
      out.push({ key: c.key, window_ends: at + ms });
    }
    return out;
  }

  /** Removes counters whose window has ended (a missing counter is a fresh one); answers how many. */
  async prune(db: Db): Promise<number> {
    return new SmsBudgetRepository(db).prune(this.clock(), PRUNE_BATCH);
  }

  /**
   * The refusal of a login code a budget held back, under the codes clients know: `sms_too_frequent` with the wait
   * for the phone's interval, `sms_daily_limit` for a day's (its codes', or all its texts').
   */
  loginRefusal(verdict: Extract<Verdict, { held: BudgetName }>): AppError {
    if (verdict.held === 'login_interval') {
      const wait = Math.max(1, Math.ceil((verdict.retryAt - this.clock()) / 1000));
      return fail('sms_too_frequent', `a code was sent recently, please wait ${wait} s before requesting another`);
    }
    return fail('sms_daily_limit');
  }

  /** The refusal of a call whose every text a budget held back (`tally.sent` is 0), naming the budget that held most. */
  refusal(tally: BudgetTally): AppError {
    const limit = [...SMS_LIMITS].sort((a, b) => tally.held_by[b] - tally.held_by[a])[0]!;
    const retryAfter = Math.max(1, Math.ceil(((tally.retryAt[limit] ?? this.clock()) - this.clock()) / 1000));
    const interval = limit === 'resend_interval';
    const figures: Record<SmsLimit, number> = {
      resend_interval: 1,
      resend_daily: this.budgets.resendDaily,
      phone_daily: this.budgets.phoneDaily,
      exam_daily: this.budgets.examDaily,
      team_daily: this.budgets.teamDaily,
    };
    const held = tally.held_by[limit];
    return fail(
      LIMIT_ERRORS[limit],
      interval
        ? `held back: ${held} text(s) resent in the last ${this.budgets.resendIntervalMs / 60_000} minutes; try again in ${retryAfter} s`
        : `held back: ${held} text(s) past the budget of ${figures[limit]} a day (${limit})`,
      {
        limit,
        held,
        max: figures[limit],
        ...(interval ? { minutes: this.budgets.resendIntervalMs / 60_000 } : {}),
        retry_after: retryAfter,
      },
    );
  }
}

/** What budgets did to a call's texts: how many go out, how many each budget held back and when each frees up. */
export class BudgetTally {
  sent = 0;
  readonly held_by: HeldBy = Object.fromEntries(SMS_LIMITS.map((l) => [l, 0])) as HeldBy;
  /** Per budget, the earliest time a text it held back could go. */
  readonly retryAt: Partial<Record<SmsLimit, number>> = {};

  /** Texts held back, all budgets together. */
  get held(): number {
    return SMS_LIMITS.reduce((n, l) => n + this.held_by[l], 0);
  }

  /** Counts one text's verdict (a text to a candidate: never held by a login code's own budgets). */
  add(verdict: Verdict): void {
    if (verdict.held === null) {
      this.sent++;
      return;
    }
    const limit = verdict.held as SmsLimit;
    this.held_by[limit]++;
    this.retryAt[limit] = Math.min(this.retryAt[limit] ?? Infinity, verdict.retryAt);
  }

  /** Adds another tally's counts. */
  merge(other: BudgetTally): void {
    this.sent += other.sent;
    for (const l of SMS_LIMITS) {
      this.held_by[l] += other.held_by[l];
      const at = other.retryAt[l];
      if (at !== undefined) this.retryAt[l] = Math.min(this.retryAt[l] ?? Infinity, at);
    }
  }
}
