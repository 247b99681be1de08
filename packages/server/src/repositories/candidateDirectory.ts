import { sql, type ExpressionBuilder, type Expression, type SqlBool, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { CandidateTable, Database } from '../db/schema.js';
import { examVisible, type ExamFilter } from './access.js';
import { containsPattern } from './bank.js';

/** A candidate row with the directory's fields. */
export type DirectoryRow = Selectable<CandidateTable>;

/** A candidate as the directory lists it: the row, its teams and how many exams invited it. */
export interface DirectoryEntry extends DirectoryRow {
  team_ids: number[];
  invitations: number;
}

/** The fields staff write. */
export interface CandidateFieldsRow {
  area_code: string;
  phone: string;
  name: string | null;
  email: string;
  school: string | null;
  major: string | null;
  degree: string | null;
  graduation_year: number | null;
  /** JSON object. */
  custom: string;
}

/** Which candidates a list may show: every one (null) or those linked to a team. */
export type TeamReach = number | null;

/** What a reader's view of a candidate counts: links to the reader's team (null: all) and invitations to the exams the reader sees. */
export interface ViewReach {
  team: TeamReach;
  exams: ExamFilter;
}

/** A view with every link and invitation (an admin's, and the service's own checks). */
export const WHOLE_VIEW: ViewReach = { team: null, exams: { kind: 'all' } };

/** A candidate found by phone: its row, whether it is linked to the team asked about, and to any other team. */
export interface PhoneHit {
  row: DirectoryRow;
  linked: boolean;
  otherTeams: boolean;
}

/** Filters of the directory list. */
export interface DirectoryFilter {
  reach: TeamReach;
  /** The exams whose invitations the list counts. */
  exams: ExamFilter;
  /** Admins narrowing to one team. */
  teamId?: number | undefined;
  q?: string | undefined;
  school?: string | undefined;
  login?: 'yes' | 'no' | undefined;
}

/** The sort columns of the directory. */
export type DirectorySort = 'name' | 'phone' | 'school' | 'graduation_year' | 'created_at' | 'last_login_at';

/** A condition: the candidate is linked to the team. */
function linkedTo(teamId: number) {
  return (eb: ExpressionBuilder<Database, 'candidates'>): Expression<SqlBool> =>
    eb.exists(
      eb
        .selectFrom('candidate_team as ct')
        .select('ct.candidate_id')
        .whereRef('ct.candidate_id', '=', 'candidates.id')
        .where('ct.team_id', '=', teamId),
    );
}

/** The preview candidate's calling code: no real phone can have it (area codes are digits). */
export const PREVIEW_AREA_CODE = 'preview';

/** The key candidates are unique by. */
export const phoneKey = (areaCode: string, phone: string) => `${areaCode} ${phone}`;

/** The staff side of candidates: the directory list, one candidate, writes and the team links. */
export class CandidateDirectoryRepository {
  constructor(private readonly db: Db) {}

  /** The filters that every list query shares (all but `login`, which the counts split by). */
  private filtered(f: DirectoryFilter) {
    // Staff's preview candidates count nowhere: the directory is of people.
    let q = this.db.selectFrom('candidates').where('candidates.area_code', '!=', PREVIEW_AREA_CODE);
    if (f.reach !== null) q = q.where(linkedTo(f.reach));
    if (f.teamId !== undefined) q = q.where(linkedTo(f.teamId));
    if (f.q) {
      const p = containsPattern(f.q.toLowerCase());
      q = q.where((eb) =>
        eb.or([
          sql<SqlBool>`lower(coalesce(candidates.name, '')) like ${p} escape '!'`,
          sql<SqlBool>`candidates.phone like ${p} escape '!'`,
          sql<SqlBool>`lower(candidates.email) like ${p} escape '!'`,
        ]),
      );
    }
    if (f.school) {
      q = q.where(
        sql<SqlBool>`lower(coalesce(candidates.school, '')) like ${containsPattern(f.school.toLowerCase())} escape '!'`,
      );
    }
    return q;
  }

  /** One page of the directory, the number matching, and the login counts (one query for the counts). */
  async list(
    f: DirectoryFilter,
    page: { sort: DirectorySort; order: 'asc' | 'desc'; offset: number; limit: number },
  ): Promise<{ rows: DirectoryEntry[]; total: number; all: number; loggedIn: number }> {
    const counts = await this.filtered(f)
      .select((eb) => [
        eb.fn.countAll<number>().as('all'),
        sql<number>`coalesce(sum(case when candidates.last_login_at is not null then 1 else 0 end), 0)`.as('logged_in'),
      ])
      .executeTakeFirstOrThrow();
    let q = this.filtered(f);
    if (f.login === 'yes') q = q.where('candidates.last_login_at', 'is not', null);
    if (f.login === 'no') q = q.where('candidates.last_login_at', 'is', null);
    const total =
      f.login === undefined
        ? Number(counts.all)
        : Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q
      .selectAll('candidates')
      .orderBy(sql.ref(`candidates.${page.sort}`), (ob) =>
        page.order === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast(),
      )
      .orderBy('candidates.id', page.order)
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    return {
      rows: await this.withLinks(rows, { team: f.reach, exams: f.exams }),
      total,
      all: Number(counts.all),
      loggedIn: Number(counts.logged_in),
    };
  }

  /**
   * Adds each row's teams and invitation count as `reach` sees them (two queries for the page): another team's
   * link, or an invitation to an exam the reader cannot see, is not the reader's to know.
   */
  async withLinks(rows: DirectoryRow[], reach: ViewReach): Promise<DirectoryEntry[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    let linkQuery = this.db
      .selectFrom('candidate_team')
      .select(['candidate_id', 'team_id'])
      .where('candidate_id', 'in', ids);
    if (reach.team !== null) linkQuery = linkQuery.where('team_id', '=', reach.team);
    const links = await linkQuery.orderBy('team_id').execute();
    const exams = reach.exams;
    const invites = await this.db
      .selectFrom('invitations as i')
      .innerJoin('candidates as c', (j) => j.onRef('c.area_code', '=', 'i.area_code').onRef('c.phone', '=', 'i.phone'))
      .select(['c.id', (eb) => eb.fn.count<number>('i.exam_id').distinct().as('n')])
      .where('c.id', 'in', ids)
      .where('i.preview', '=', 0)
      .$if(exams.kind !== 'all', (q) =>
        q.where((eb) =>
          eb.exists(
            eb.selectFrom('exams').select('exams.id').whereRef('exams.id', '=', 'i.exam_id').where(examVisible(exams)),
          ),
        ),
      )
      .groupBy('c.id')
      .execute();
    const invited = new Map(invites.map((r) => [r.id, Number(r.n)]));
    return rows.map((r) => ({
      ...r,
      team_ids: links.filter((l) => l.candidate_id === r.id).map((l) => l.team_id),
      invitations: invited.get(r.id) ?? 0,
    }));
  }

  /** One candidate with its links as `reach` sees them, if it exists. */
  async byId(id: number, reach: ViewReach): Promise<DirectoryEntry | undefined> {
    const row = await this.db.selectFrom('candidates').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? (await this.withLinks([row], reach))[0] : undefined;
  }

  /** The teams linked to a candidate. */
  async teamsOf(candidateId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('candidate_team')
      .select('team_id')
      .where('candidate_id', '=', candidateId)
      .orderBy('team_id')
      .execute();
    return rows.map((r) => r.team_id);
  }

  /** The candidates with these phones, by `phoneKey`, with whether each is linked to `teamId` and to other teams. */
  async byPhones(
    phones: readonly { area_code: string; phone: string }[],
    teamId: number | null,
  ): Promise<Map<string, PhoneHit>> {
    const found = new Map<string, PhoneHit>();
    if (phones.length === 0) return found;
    const rows = await this.db
      .selectFrom('candidates')
      .selectAll()
      .where('phone', 'in', [...new Set(phones.map((p) => p.phone))])
      .execute();
    const wanted = new Set(phones.map((p) => phoneKey(p.area_code, p.phone)));
    const hits = rows.filter((r) => wanted.has(phoneKey(r.area_code, r.phone)));
    const links =
      hits.length === 0
        ? []
        : await this.db
            .selectFrom('candidate_team')
            .select(['candidate_id', 'team_id'])
            .where(
              'candidate_id',
              'in',
              hits.map((h) => h.id),
            )
            .execute();
    const linked = new Set(links.filter((l) => l.team_id === teamId).map((l) => l.candidate_id));
    const elsewhere = new Set(links.filter((l) => l.team_id !== teamId).map((l) => l.candidate_id));
    for (const r of hits) {
      found.set(phoneKey(r.area_code, r.phone), { row: r, linked: linked.has(r.id), otherTeams: elsewhere.has(r.id) });
    }
    return found;
  }

  /** Creates candidates; answers their ids in order. */
  async create(rows: readonly CandidateFieldsRow[], now: number): Promise<number[]> {
    if (rows.length === 0) return [];
    const out = await this.db
      .insertInto('candidates')
      .values(rows.map((r) => ({ ...r, created_at: now, last_login_at: null })))
      .returning('id')
      .execute();
    return out.map((r) => r.id);
  }

  /** Writes a candidate's fields. */
  async update(id: number, fields: CandidateFieldsRow): Promise<void> {
    await this.db.updateTable('candidates').set(fields).where('id', '=', id).execute();
  }

  /** Links candidates to a team (links already there stay as they were). */
  async link(candidateIds: readonly number[], teamId: number, staffId: number | null, now: number): Promise<void> {
    if (candidateIds.length === 0) return;
    await this.db
      .insertInto('candidate_team')
      .values(candidateIds.map((id) => ({ team_id: teamId, candidate_id: id, added_by: staffId, added_at: now })))
      .onConflict((oc) => oc.columns(['team_id', 'candidate_id']).doNothing())
      .execute();
  }
}
