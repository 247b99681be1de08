import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ExamStaffTable, TeamTable } from '../db/schema.js';

/** A team row. */
export type TeamRow = Selectable<TeamTable>;
/** A team with its member and exam counts. */
export type TeamWithCounts = TeamRow & { member_count: number; exam_count: number };
/** An assignment row. */
export type ExamStaffRow = Selectable<ExamStaffTable>;
/** An assignment with the staff member's name and state. */
export type ExamStaffWithName = ExamStaffRow & { name: string; disabled: number };

/** Teams and the assignments of proctors and graders to exams. */
export class TeamRepository {
  constructor(private readonly db: Db) {}

  private counted() {
    return this.db
      .selectFrom('teams')
      .selectAll('teams')
      .select((eb) => [
        eb
          .selectFrom('staff')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('staff.team_id', '=', 'teams.id')
          .as('member_count'),
        eb
          .selectFrom('exams')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('exams.team_id', '=', 'teams.id')
          .as('exam_count'),
      ]);
  }

  private static counts(r: TeamRow & { member_count: unknown; exam_count: unknown }): TeamWithCounts {
    return { ...r, member_count: Number(r.member_count ?? 0), exam_count: Number(r.exam_count ?? 0) };
  }

  /** Every team with its counts, by name. */
  async list(): Promise<TeamWithCounts[]> {
    return (await this.counted().orderBy('teams.name').orderBy('teams.id').execute()).map(TeamRepository.counts);
  }

  /** One team with its counts. */
  async find(id: number): Promise<TeamWithCounts | undefined> {
    const row = await this.counted().where('teams.id', '=', id).executeTakeFirst();
    return row ? TeamRepository.counts(row) : undefined;
  }

  /** The team with this name, if any. */
  findByName(name: string): Promise<TeamRow | undefined> {
    return this.db.selectFrom('teams').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Creates a team. */
  create(name: string, now: number): Promise<TeamRow> {
    return this.db.insertInto('teams').values({ name, created_at: now }).returningAll().executeTakeFirstOrThrow();
  }

  /** Renames a team. */
  async rename(id: number, name: string): Promise<void> {
    await this.db.updateTable('teams').set({ name }).where('id', '=', id).execute();
  }

  /** An exam's assignments with the staff members' names, by role then name. */
  assignments(examId: number): Promise<ExamStaffWithName[]> {
    return this.db
      .selectFrom('exam_staff as x')
      .innerJoin('staff as s', 's.id', 'x.staff_id')
      .selectAll('x')
      .select(['s.name', 's.disabled'])
      .where('x.exam_id', '=', examId)
      .orderBy('x.role')
      .orderBy('s.name')
      .orderBy('s.id')
      .execute();
  }

  /** One assignment, if it exists. */
  assignment(examId: number, staffId: number, role: string): Promise<ExamStaffRow | undefined> {
    return this.db
      .selectFrom('exam_staff')
      .selectAll()
      .where('exam_id', '=', examId)
      .where('staff_id', '=', staffId)
      .where('role', '=', role)
      .executeTakeFirst();
  }

  /** Proctors and graders an exam may be given: of one team, or of every team (null). */
  assignable(teamId: number | null): Promise<{ id: number; name: string; role: string; disabled: number }[]> {
    let q = this.db
      .selectFrom('staff')
      .select(['id', 'name', 'role', 'disabled'])
      .where('role', 'in', ['proctor', 'grader']);
    if (teamId !== null) q = q.where('team_id', '=', teamId);
    return q.orderBy('role').orderBy('name').orderBy('id').execute();
  }

  /** Adds an assignment. */
  assign(row: ExamStaffRow): Promise<ExamStaffRow> {
    return this.db.insertInto('exam_staff').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Removes an assignment; true when there was one. */
  async unassign(examId: number, staffId: number, role: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('exam_staff')
      .where('exam_id', '=', examId)
      .where('staff_id', '=', staffId)
      .where('role', '=', role)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }
}
