import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { hotQuery } from '../db/hotQuery.js';
import type { CandidateTable } from '../db/schema.js';

/** A candidate row. */
export type Candidate = Selectable<CandidateTable>;

const byTokenHash = hotQuery(
  (db, p: { tokenHash: string; now: number }) =>
    db
      .selectFrom('auth_tokens as t')
      .innerJoin('candidates as c', 'c.id', 't.subject_id')
      .selectAll('c')
      .where('t.token_hash', '=', p.tokenHash)
      .where('t.kind', '=', 'candidate')
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', p.now),
  { gather: true },
);

/** Candidates by phone and id. */
export class CandidateRepository {
  constructor(private readonly db: Db) {}

  /** The candidate with this phone, if any. */
  findByPhone(areaCode: string, phone: string): Promise<Candidate | undefined> {
    return this.db
      .selectFrom('candidates')
      .selectAll()
      .where('area_code', '=', areaCode)
      .where('phone', '=', phone)
      .executeTakeFirst();
  }

  /** The candidate with this id, if any. */
  findById(id: number): Promise<Candidate | undefined> {
    return this.db.selectFrom('candidates').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The candidate behind a live candidate token hash, in one query (it runs on every candidate call). */
  async findByTokenHash(tokenHash: string, now: number): Promise<Candidate | undefined> {
    return (await byTokenHash(this.db, { tokenHash, now })).rows[0];
  }

  /** Creates a candidate on first login. */
  create(areaCode: string, phone: string, now: number): Promise<Candidate> {
    return this.db
      .insertInto('candidates')
      .values({ area_code: areaCode, phone, created_at: now, last_login_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Saves the profile. */
  async saveProfile(
    id: number,
    p: { name: string; school: string; major: string; degree: string; graduation_year: number },
  ): Promise<void> {
    await this.db.updateTable('candidates').set(p).where('id', '=', id).execute();
  }

  /** Notes a login. */
  async touchLogin(id: number, now: number): Promise<void> {
    await this.db.updateTable('candidates').set({ last_login_at: now }).where('id', '=', id).execute();
  }
}
