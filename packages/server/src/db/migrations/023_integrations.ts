import type { Kysely } from 'kysely';
import type { DialectKit } from '../dialects/types.js';

/**
 * Results to other systems: webhook endpoints (every exam or one team's), the outbox of events (written in the
 * transaction that makes a score final or changes it), one delivery per event and endpoint with its tries, and
 * API tokens (stored as SHA-256 hashes) that read results.
 */
export function integrations(kit: DialectKit) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('url', 'text', (c) => c.notNull())
        // Kept as typed: the HMAC needs it. Never answered by any call nor written to the audit log.
        .addColumn('secret', 'text', (c) => c.notNull())
        // Null: every exam's events.
        .addColumn('team_id', 'integer', (c) => c.references('teams.id').onDelete('cascade'))
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('webhook_events')
        .addColumn('id', kit.idType, kit.idColumn)
        // 'attempt.scored' or 'ping'.
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('attempt_id', 'integer', (c) => c.references('attempts.id').onDelete('cascade'))
        .addColumn('exam_id', 'integer')
        .addColumn('score', 'double precision')
        .addColumn('max_score', 'double precision')
        // The JSON posted, made on the first try and sent unchanged on every later one.
        .addColumn('body', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('webhook_events_attempt')
        .on('webhook_events')
        .columns(['attempt_id', 'id'])
        .execute();
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('event_id', 'integer', (c) => c.notNull().references('webhook_events.id').onDelete('cascade'))
        .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
        // 'pending', 'delivered' or 'failed'.
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', 'bigint')
        // A deliverer holds a claimed delivery until then; past it, another takes it over.
        .addColumn('lease_until', 'bigint')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('delivered_at', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('webhook_deliveries_once', ['event_id', 'endpoint_id'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_due')
        .on('webhook_deliveries')
        .columns(['status', 'next_at'])
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_endpoint')
        .on('webhook_deliveries')
        .columns(['endpoint_id', 'status'])
        .execute();
      await db.schema
        .createTable('api_tokens')
        .addColumn('id', kit.idType, kit.idColumn)
        .addColumn('name', 'text', (c) => c.notNull())
        // 'read-results'.
        .addColumn('scope', 'text', (c) => c.notNull())
        // Null: every exam.
        .addColumn('team_id', 'integer', (c) => c.references('teams.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
    },
  };
}
