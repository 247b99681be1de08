import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** A budget's counter: texts counted in its window, and when the window ends. */
export interface BudgetCounter {
  key: string;
  used: number;
  window_ends: number;
}

/** Rows of one statement: SQLite allows 999 bound values, and a counter binds three. */
const CHUNK = 300;

/** The counters of texts' budgets (services/smsBudget.ts holds the rule). */
export class SmsBudgetRepository {
  constructor(private readonly db: Db) {}

  /**
   * Takes counters for this transaction and answers them as they stand: one missing, or past its window, starts
   * again from nothing with the window given. It is an upsert even for a counter that stays as it was, so that the
   * row stays locked (PostgreSQL) or the database does (SQLite) until the transaction ends: a sender in another
   * request or process waits here and then reads what this one counted. Keys go in one order in every
   * transaction, so two senders wanting the same counters wait for each other instead of deadlocking.
   */
  async lock(
    counters: readonly { key: string; window_ends: number }[],
    now: number,
  ): Promise<Map<string, BudgetCounter>> {
    const sorted = [...counters].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const expired = sql<boolean>`sms_budget.window_ends <= ${now}`;
    const out = new Map<string, BudgetCounter>();
    for (let i = 0; i < sorted.length; i += CHUNK) {
      const rows = await this.db
        .insertInto('sms_budget')
        .values(sorted.slice(i, i + CHUNK).map((c) => ({ key: c.key, used: 0, window_ends: c.window_ends })))
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            used: sql<number>`case when ${expired} then 0 else sms_budget.used end`,
            window_ends: sql<number>`case when ${expired} then excluded.window_ends else sms_budget.window_ends end`,
          }),
        )
        .returning(['key', 'used', 'window_ends'])
        .execute();
      for (const r of rows) out.set(r.key, { key: r.key, used: Number(r.used), window_ends: Number(r.window_ends) });
    }
    return out;
  }

  /** Stores counters' new figures; only for counters this transaction took with `lock`. */
  async store(counters: readonly BudgetCounter[]): Promise<void> {
    for (let i = 0; i < counters.length; i += CHUNK) {
      await this.db
        .insertInto('sms_budget')
        .values(counters.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            used: sql<number>`excluded.used`,
            window_ends: sql<number>`excluded.window_ends`,
          }),
        )
        .execute();
    }
  }

  /** Takes one text off each counter, when it is still in the window the text was counted in. */
  async giveBack(counted: readonly { key: string; window_ends: number }[]): Promise<void> {
    for (const c of counted)
      await this.db
        .updateTable('sms_budget')
        .set((eb) => ({ used: eb('used', '-', 1) }))
        .where('key', '=', c.key)
        .where('window_ends', '=', c.window_ends)
        .where('used', '>', 0)
        .execute();
  }

  /** Moves the end of a counter's window from `from` to `to` (when it is still that window). */
  async moveWindow(key: string, from: number, to: number): Promise<void> {
    await this.db
      .updateTable('sms_budget')
      .set({ window_ends: to })
      .where('key', '=', key)
      .where('window_ends', '=', from)
      .execute();
  }

  /** Removes up to `limit` counters whose window ended by `now` (such a counter counts as missing); answers how many. */
  async prune(now: number, limit: number): Promise<number> {
    const r = await this.db
      .deleteFrom('sms_budget')
      .where('key', 'in', (eb) =>
        eb.selectFrom('sms_budget').select('key').where('window_ends', '<=', now).limit(limit),
      )
      .where('window_ends', '<=', now)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
