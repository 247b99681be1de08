import { ExamPhase, type CandidateStatus } from '@examhall/contract';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/database.js';
import { containsPattern } from './bank.js';

/** One invited candidate of an exam with the status the data gives. */
export interface ExamCandidateRecord {
  invitation_id: number;
  candidate_id: number | null;
  area_code: string;
  phone: string;
  name: string | null;
  email: string | null;
  school: string | null;
  status: CandidateStatus;
  sms: string | null;
  invited_at: number;
  last_login_at: number | null;
  attempt_id: number | null;
  started_at: number | null;
  finished_at: number | null;
  finish_reason: string | null;
  score: number | null;
}

/** Filters of an exam's candidate list. */
export interface ExamCandidateFilter {
  examId: number;
  /** The server's time: the window of an exam is over or not by it. */
  now: number;
  q?: string | undefined;
  status?: CandidateStatus | undefined;
}

/** Sort columns of an exam's candidate list. */
export type ExamCandidateSort = 'name' | 'phone' | 'school' | 'status' | 'invited_at' | 'started_at';

/**
 * Each invited candidate's status in an exam, computed from the data in one query: the invitation, the
 * candidate with that phone (their last login), and the invitation's latest attempt (its phase, the signed
 * pledge that ends the device checks, how it finished). The status is a CASE over those, furthest first:
 *   ended by a proctor > submitted > in progress > absent (the window, with the invitation's extra minutes, is
 *   over and the exam never started for them) > checks passed (the pledge, the last check, is signed) >
 *   logged in (an attempt exists, or a login since the invitation) > invited.
 * The SMS state of the invitation is a column of its own: the invitation SMS table joins here on
 * `invitation_id` (one left join replacing the null below), without touching the status.
 */
export class ExamCandidateRepository {
  constructor(private readonly db: Db) {}

  /** The rows before filtering by status: one per invitation, with the computed status. */
  private base(f: ExamCandidateFilter) {
    let q = this.db
      .selectFrom('invitations as i')
      .innerJoin('exams as e', 'e.id', 'i.exam_id')
      .leftJoin('candidates as c', (j) => j.onRef('c.area_code', '=', 'i.area_code').onRef('c.phone', '=', 'i.phone'))
      .leftJoin('attempts as a', (j) =>
        j.onRef('a.invitation_id', '=', 'i.id').on((eb) =>
          eb(
            'a.id',
            '=',
            eb
              .selectFrom('attempts as a2')
              .select((e2) => e2.fn.max('a2.id').as('m'))
              .whereRef('a2.invitation_id', '=', 'i.id'),
          ),
        ),
      )
      .where('i.exam_id', '=', f.examId)
      .where('i.preview', '=', 0);
    // A person's profile belongs to the teams that hold them: an exam shows it once its team holds the person or
    // the person has come to this exam. Inviting a phone another team holds reveals nothing that team recorded.
    const known = sql<SqlBool>`(a.id is not null or e.team_id is null or exists (
      select 1 from candidate_team ct where ct.candidate_id = c.id and ct.team_id = e.team_id))`;
    const shown = <T>(column: 'c.id' | 'c.name' | 'c.email' | 'c.school') =>
      sql<T | null>`case when ${known} then ${sql.ref(column)} else null end`;
    if (f.q) {
      const p = containsPattern(f.q.toLowerCase());
      q = q.where((eb) =>
        eb.or([
          sql<SqlBool>`lower(coalesce(${shown<string>('c.name')}, '')) like ${p} escape '!'`,
          sql<SqlBool>`i.phone like ${p} escape '!'`,
          sql<SqlBool>`lower(coalesce(${shown<string>('c.school')}, '')) like ${p} escape '!'`,
        ]),
      );
    }
    const status = sql<CandidateStatus>`case
      when a.finish_reason = 'proctor' then 'ended_by_proctor'
      when a.phase = ${ExamPhase.submit} then 'submitted'
      when a.phase = ${ExamPhase.exam} then 'in_progress'
      when e.end_at + i.extra_minutes * cast(60000 as bigint) <= cast(${f.now} as bigint) then 'absent'
      when a.signature_key is not null then 'checks_passed'
      when a.id is not null or c.last_login_at >= i.created_at then 'logged_in'
      else 'invited' end`;
    return q.select([
      'i.id as invitation_id',
      shown<number>('c.id').as('candidate_id'),
      'i.area_code',
      'i.phone',
      shown<string>('c.name').as('name'),
      shown<string>('c.email').as('email'),
      shown<string>('c.school').as('school'),
      status.as('status'),
      // The state of the invitation's latest text.
      sql<
        string | null
      >`(select m.state from sms_messages m where m.invitation_id = i.id order by m.id desc limit 1)`.as('sms'),
      'i.created_at as invited_at',
      'c.last_login_at',
      'a.id as attempt_id',
      'a.started_at',
      'a.finished_at',
      'a.finish_reason',
      'a.score',
    ]);
  }

  /** The filtered rows (status included) as a subquery to count, sort and page. */
  private filtered(f: ExamCandidateFilter) {
    let q = this.db.selectFrom(this.base(f).as('s'));
    if (f.status) q = q.where('s.status', '=', f.status);
    return q;
  }

  /** Candidates per status (of those matching `q`), in one grouped query. */
  async counts(f: ExamCandidateFilter): Promise<Map<CandidateStatus, number>> {
    const rows = await this.db
      .selectFrom(this.base({ ...f, status: undefined }).as('s'))
      .select(['s.status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('s.status')
      .execute();
    return new Map(rows.map((r) => [r.status, Number(r.n)]));
  }

  /** How many rows match. */
  async total(f: ExamCandidateFilter): Promise<number> {
    const r = await this.filtered(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** One page (or, with no limit, every row: the export). */
  async page(
    f: ExamCandidateFilter,
    p: { sort: ExamCandidateSort; order: 'asc' | 'desc'; offset: number; limit: number },
  ): Promise<ExamCandidateRecord[]> {
    const rows = await this.filtered(f)
      .selectAll('s')
      .orderBy(sql.ref(`s.${p.sort}`), (ob) => (p.order === 'asc' ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
      .orderBy('s.invitation_id', p.order)
      .offset(p.offset)
      .limit(p.limit)
      .execute();
    return rows.map((r) => ({
      ...r,
      invited_at: Number(r.invited_at),
      last_login_at: r.last_login_at === null ? null : Number(r.last_login_at),
      started_at: r.started_at === null ? null : Number(r.started_at),
      finished_at: r.finished_at === null ? null : Number(r.finished_at),
      score: r.score === null ? null : Number(r.score),
    }));
  }
}
