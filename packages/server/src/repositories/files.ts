import type { Insertable } from 'kysely';
import type { Db } from '../db/database.js';
import type { StoredFileTable } from '../db/schema.js';

/** Files in object storage, and which is whose resume. */
export class FileRepository {
  constructor(private readonly db: Db) {}

  /** Records a stored file (again: same key, same content). */
  async record(row: Insertable<StoredFileTable>): Promise<void> {
    await this.db
      .insertInto('stored_files')
      .values(row)
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  /** A stored file by key. */
  byKey(key: string) {
    return this.db.selectFrom('stored_files').selectAll().where('key', '=', key).executeTakeFirst();
  }

  /** Those of `keys` that are recorded files of the owner. */
  async keysOwnedBy(ownerKind: string, ownerId: number, keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('stored_files')
      .select('key')
      .where('owner_kind', '=', ownerKind)
      .where('owner_id', '=', ownerId)
      .where('key', 'in', [...keys])
      .execute();
    return new Set(rows.map((r) => r.key));
  }

  /** Makes a stored file the candidate's resume. */
  async setResume(candidateId: number, key: string, now: number): Promise<void> {
    await this.db
      .insertInto('resumes')
      .values({ candidate_id: candidateId, file_key: key, uploaded_at: now })
      .onConflict((oc) => oc.column('candidate_id').doUpdateSet({ file_key: key, uploaded_at: now }))
      .execute();
  }

  /** The candidate's resume file. */
  resumeOf(candidateId: number) {
    return this.db
      .selectFrom('resumes as r')
      .innerJoin('stored_files as f', 'f.key', 'r.file_key')
      .select(['f.file_name', 'f.size', 'f.mime', 'f.sha256', 'r.uploaded_at'])
      .where('r.candidate_id', '=', candidateId)
      .executeTakeFirst();
  }
}
