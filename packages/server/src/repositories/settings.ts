import type { Db } from '../db/database.js';

/** Settings shared by every process. */
export class SettingsRepository {
  constructor(private readonly db: Db) {}

  /** The value under `key`, created from `make` on first use; every process ends up with the same value. */
  async getOrCreate(key: string, make: () => string): Promise<string> {
    await this.db
      .insertInto('app_settings')
      .values({ key, value: make() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('app_settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    return row.value;
  }

  /** The value under `key`, or undefined. */
  async get(key: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  /** Sets the value under `key`. */
  async set(key: string, value: string): Promise<void> {
    await this.db
      .insertInto('app_settings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
