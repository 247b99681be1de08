import { sql, type ExpressionBuilder, type SqlBool, type Expression } from 'kysely';
import type { ResourceKind } from '@examhall/contract';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';

/**
 * Which exams a staff member may see: every exam (admin), a team's (author), or those they are assigned to
 * in a role (proctor, grader).
 */
export type ExamFilter =
  { kind: 'all' } | { kind: 'team'; teamId: number | null } | { kind: 'assigned'; staffId: number; role: string };

/** Who a resource belongs to: its team, and for exam-bound resources (exam, attempt, record) its exam. */
export interface ResourceOwner {
  /** The resource's id. */
  id: number;
  /** Its team (an attempt's or record's: its exam's), or null. */
  teamId: number | null;
  /** Its exam, for exams, attempts and records; null otherwise. */
  examId: number | null;
  /** The staff member who started it, for jobs (a job is its starter's as well as its team's). */
  staffId?: number | null;
}

/**
 * A condition on `exams.id` / `exams.team_id` that keeps the exams a filter allows; use it in any query
 * that has the `exams` table in scope: `.where(examVisible(filter))`.
 */
export function examVisible(filter: ExamFilter) {
  return <DB extends Database, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>): Expression<SqlBool> => {
    const e = eb as unknown as ExpressionBuilder<Database, 'exams'>;
    if (filter.kind === 'all') return e.lit(true);
    // A non-admin without a team sees no team's exam; `= null` would be the same, said plainly here.
    if (filter.kind === 'team') return filter.teamId === null ? e.lit(false) : e('exams.team_id', '=', filter.teamId);
    return e.exists(
      e
        .selectFrom('exam_staff')
        .select('exam_staff.exam_id')
        .whereRef('exam_staff.exam_id', '=', 'exams.id')
        .where('exam_staff.staff_id', '=', filter.staffId)
        .where('exam_staff.role', '=', filter.role),
    );
  };
}

/** The reads of the access check: owners of resources by kind, and exam assignments. */
export class AccessRepository {
  constructor(private readonly db: Db) {}

  /** The owners of the resources of `kind` with these ids that exist (missing ones are simply absent). */
  async owners(kind: ResourceKind, ids: readonly number[]): Promise<ResourceOwner[]> {
    if (ids.length === 0) return [];
    const list = [...ids];
    switch (kind) {
      case 'exam':
        return (await this.db.selectFrom('exams').select(['id', 'team_id']).where('id', 'in', list).execute()).map(
          (r) => ({ id: r.id, teamId: r.team_id, examId: r.id }),
        );
      case 'attempt':
        return (
          await this.db
            .selectFrom('attempts as a')
            .innerJoin('exams as e', 'e.id', 'a.exam_id')
            .select(['a.id', 'e.team_id', 'e.id as exam_id'])
            .where('a.id', 'in', list)
            .execute()
        ).map((r) => ({ id: r.id, teamId: r.team_id, examId: r.exam_id }));
      case 'record':
        return (
          await this.db
            .selectFrom('risk_records as r')
            .innerJoin('attempts as a', 'a.id', 'r.attempt_id')
            .innerJoin('exams as e', 'e.id', 'a.exam_id')
            .select(['r.id', 'e.team_id', 'e.id as exam_id'])
            .where('r.id', 'in', list)
            .execute()
        ).map((r) => ({ id: r.id, teamId: r.team_id, examId: r.exam_id }));
      case 'staff':
        return (await this.db.selectFrom('staff').select(['id', 'team_id']).where('id', 'in', list).execute()).map(
          (r) => ({ id: r.id, teamId: r.team_id, examId: null }),
        );
      case 'team':
        return (await this.db.selectFrom('teams').select('id').where('id', 'in', list).execute()).map((r) => ({
          id: r.id,
          teamId: r.id,
          examId: null,
        }));
      case 'folder':
        return this.teamOwned('bank_folders', list);
      case 'question':
        return this.teamOwned('bank_questions', list);
      case 'job':
        return (
          await this.db.selectFrom('job').select(['id', 'team_id', 'owner_staff_id']).where('id', 'in', list).execute()
        ).map((r) => ({ id: r.id, teamId: r.team_id, examId: null, staffId: r.owner_staff_id }));
      case 'invitation':
        return this.examPart('invitations', list);
      case 'slot':
        return this.examPart('exam_slots', list);
      case 'version':
        return this.examPart('exam_versions', list);
      case 'pair':
        return this.examPart('similarity_pairs', list);
      case 'exam_question':
        return this.examPart('questions', list);
      case 'candidate': {
        // A candidate belongs to every team linked to it: one owner per link (none: only admins reach it).
        const rows = await this.db
          .selectFrom('candidates as c')
          .leftJoin('candidate_team as ct', 'ct.candidate_id', 'c.id')
          .select(['c.id', 'ct.team_id'])
          .where('c.id', 'in', list)
          .execute();
        return rows.map((r) => ({ id: r.id, teamId: r.team_id, examId: null }));
      }
    }
  }

  /** Owners of an exam's parts, each row with its exam_id: the exam's team owns them. */
  private async examPart(
    table: 'invitations' | 'exam_slots' | 'exam_versions' | 'similarity_pairs' | 'questions',
    ids: number[],
  ): Promise<ResourceOwner[]> {
    const rows = await this.db
      .selectFrom(`${table} as p` as 'invitations as p')
      .innerJoin('exams as e', 'e.id', 'p.exam_id')
      .select(['p.id', 'e.team_id', 'e.id as exam_id'])
      .where('p.id', 'in', ids)
      .execute();
    return rows.map((r) => ({ id: r.id, teamId: r.team_id, examId: r.exam_id }));
  }

  /** Owners in a bank table (migration 010), each row with its own team_id. */
  private async teamOwned(table: 'bank_folders' | 'bank_questions', ids: number[]): Promise<ResourceOwner[]> {
    const rows = await sql<{ id: number; team_id: number | null }>`
      select id, team_id from ${sql.table(table)} where id in (${sql.join(ids)})`.execute(this.db);
    return rows.rows.map((r) => ({
      id: Number(r.id),
      teamId: r.team_id === null ? null : Number(r.team_id),
      examId: null,
    }));
  }

  /** True when the exam's marking is blind (its grading settings say so). */
  async blindMarking(examId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('exam_grading')
      .select('blind')
      .where('exam_id', '=', examId)
      .executeTakeFirst();
    return row?.blind === 1;
  }

  /** Of these exams, those the staff member is assigned to in `role`. */
  async assignedExams(staffId: number, role: string, examIds: readonly number[]): Promise<Set<number>> {
    if (examIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('exam_staff')
      .select('exam_id')
      .where('staff_id', '=', staffId)
      .where('role', '=', role)
      .where('exam_id', 'in', [...examIds])
      .execute();
    return new Set(rows.map((r) => r.exam_id));
  }
}
