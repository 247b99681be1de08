import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';

/** The audit log. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  /** Appends an entry. */
  async record(entry: Insertable<AuditLogTable>): Promise<void> {
    await this.db.insertInto('audit_log').values(entry).execute();
  }
}
