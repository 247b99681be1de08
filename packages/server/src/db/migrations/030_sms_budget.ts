import type { Kysely } from 'kysely';

/**
 * Texts have budgets (services/smsBudget.ts): one counter per budget and subject (an invitation's resends, a
 * phone's texts a day, an exam's, a team's, a phone's login codes), counted with a conditional upsert so that
 * concurrent senders in any process cannot pass one limit together; and a text a budget held back keeps which one.
 */
export function smsBudget() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sms_budget')
        // '<limit>:<subject>', e.g. 'resend_interval:42', 'phone_daily:86 13800138000', 'exam_daily:7'.
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('used', 'integer', (c) => c.notNull())
        // The end of the counter's window (epoch ms): past it the counter starts again from nothing.
        .addColumn('window_ends', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sms_budget_window').on('sms_budget').column('window_ends').execute();
      await db.schema.alterTable('sms_messages').addColumn('held_by', 'text').execute();
    },
  };
}
