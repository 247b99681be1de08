import { sql, type Kysely } from 'kysely';

/** What the backfill reads and writes. */
interface SweepSchema {
  webhook_events: { id: number; attempt_id: number | null; latest: number };
}

/**
 * Indexes for periodic tasks that read a whole growing table, or all of its history, on every run
 * (jobs/periodicPlans.test.ts names the first kind): the phone sweep (every 2 s) read every attempt for the phones
 * that went quiet; the login tries' sweep every try for the ended windows; the webhook log's pruning every settled
 * delivery still kept, and every event, for the few past their days. An attempt's latest event is kept whatever its
 * age, so events now say which they are (`latest`), and the pruning reads only the others past their days.
 */
export function sweepIndexes() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // Partial: most attempts never have a phone, and only those with one are asked about.
      await db.schema
        .createIndex('attempts_phone_seen')
        .on('attempts')
        .column('phone_seen_at')
        .where(sql.ref('phone_seen_at'), 'is not', null)
        .execute();
      await db.schema.createIndex('staff_login_tries_window').on('staff_login_tries').column('window_ends').execute();
      await db.schema
        .createIndex('webhook_deliveries_settled')
        .on('webhook_deliveries')
        .columns(['status', 'updated_at'])
        .execute();
      await db.schema
        .alterTable('webhook_events')
        .addColumn('latest', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      const events = db as Kysely<SweepSchema>;
      await events
        .updateTable('webhook_events')
        .set({ latest: 1 })
        .where('attempt_id', 'is not', null)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_events as later')
                .select('later.id')
                .whereRef('later.attempt_id', '=', 'webhook_events.attempt_id')
                .whereRef('later.id', '>', 'webhook_events.id'),
            ),
          ),
        )
        .execute();
      await db.schema
        .createIndex('webhook_events_prunable')
        .on('webhook_events')
        .columns(['latest', 'created_at', 'id'])
        .execute();
    },
  };
}
