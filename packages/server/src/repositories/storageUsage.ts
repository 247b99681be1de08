import type { Db } from '../db/database.js';

/** A storage quota: bytes and objects. */
export interface StorageQuota {
  maxBytes: number;
  maxObjects: number;
}

/** Each storage prefix's quota and usage (what an attempt's uploads may take). */
export class StorageUsageRepository {
  constructor(private readonly db: Db) {}

  /** Sets the quota of a prefix (a recomputed one replaces the old: extra time may raise it); usage is kept. */
  async setQuota(prefix: string, quota: StorageQuota): Promise<void> {
    await this.db
      .insertInto('storage_usage')
      .values({ prefix, max_bytes: quota.maxBytes, max_objects: quota.maxObjects })
      .onConflict((oc) => oc.column('prefix').doUpdateSet({ max_bytes: quota.maxBytes, max_objects: quota.maxObjects }))
      .execute();
  }

  /**
   * Counts one object of `bytes` against the prefix's quota in one conditional update, so concurrent uploads
   * cannot pass it together: 'ok' when it fits, 'over' when it does not, 'none' when the prefix has no quota.
   */
  async reserve(prefix: string, bytes: number): Promise<'ok' | 'over' | 'none'> {
    const res = await this.db
      .updateTable('storage_usage')
      .set((eb) => ({ bytes: eb('bytes', '+', bytes), objects: eb('objects', '+', 1) }))
      .where('prefix', '=', prefix)
      .where((eb) => eb(eb('bytes', '+', bytes), '<=', eb.ref('max_bytes')))
      .where((eb) => eb(eb('objects', '+', 1), '<=', eb.ref('max_objects')))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) > 0) return 'ok';
    const row = await this.db
      .selectFrom('storage_usage')
      .select('prefix')
      .where('prefix', '=', prefix)
      .executeTakeFirst();
    return row ? 'over' : 'none';
  }

  /** Gives back what `reserve` counted for an object that was not kept after all. */
  async release(prefix: string, bytes: number): Promise<void> {
    await this.db
      .updateTable('storage_usage')
      .set((eb) => ({ bytes: eb('bytes', '-', bytes), objects: eb('objects', '-', 1) }))
      .where('prefix', '=', prefix)
      .execute();
  }

  /** The quota and usage of a prefix. */
  usage(prefix: string) {
    return this.db.selectFrom('storage_usage').selectAll().where('prefix', '=', prefix).executeTakeFirst();
  }
}
