import { PostgresAdapter, sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { gathered } from '../db/gather.js';
import { hotQuery } from '../db/hotQuery.js';
import type { CandidateTable } from '../db/schema.js';

/** A candidate row. */
export type Candidate = Selectable<CandidateTable>;

/** A candidate found by a token, with the moment the token ends. */
export type CandidateOfToken = Candidate & { token_expires_at: number };

const byTokenHash = hotQuery(
  (db, p: { tokenHash: string; now: number }) =>
    db
      .selectFrom('auth_tokens as t')
      .innerJoin('candidates as c', 'c.id', 't.subject_id')
      .selectAll('c')
      .select('t.expires_at as token_expires_at')
      .where('t.token_hash', '=', p.tokenHash)
      .where('t.kind', '=', 'candidate')
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', p.now),
  { gather: true },
);

// The same lookup for all the requests of one turn of the event loop in one statement (PostgreSQL).
const byTokenHashes = gathered(async (db, ps: readonly { tokenHash: string; now: number }[]) => {
  const { rows } = await sql<CandidateOfToken & { n: number }>`
    select i.n::integer as n, c.*, t.expires_at as token_expires_at
    from unnest(${ps.map((p) => p.tokenHash)}::text[], ${ps.map((p) => p.now)}::bigint[])
      with ordinality as i(token_hash, now, n)
    join auth_tokens t on t.token_hash = i.token_hash
    join candidates c on c.id = t.subject_id
    where t.kind = 'candidate' and t.revoked_at is null and t.expires_at > i.now`.execute(db);
  const found = new Map(rows.map(({ n, ...c }) => [n, { ...c, token_expires_at: Number(c.token_expires_at) }]));
  return ps.map((_, i) => found.get(i + 1));
});

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
  async findByTokenHash(tokenHash: string, now: number): Promise<CandidateOfToken | undefined> {
    if (this.db.getExecutor().adapter instanceof PostgresAdapter && !this.db.isTransaction)
      return byTokenHashes(this.db, { tokenHash, now });
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
