import { api, type ExamStaffListData, type ExamStaffRole, type ExamStaffView, type TeamView } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';
import { fail } from '../errors.js';
import { StaffRepository } from '../repositories/staff.js';
import { TeamRepository, type ExamStaffRow, type TeamWithCounts } from '../repositories/teams.js';
import { authorize, type AccessService, type StaffActor } from './access.js';
import type { AuditService } from './audit.js';

function toView(t: TeamWithCounts): TeamView {
  return { id: t.id, name: t.name, created_at: t.created_at, member_count: t.member_count, exam_count: t.exam_count };
}

/** What the audit log keeps of a team: what can change about it. */
function snapshot(t: { id: number; name: string }): Record<string, unknown> {
  return { id: t.id, name: t.name };
}

/** What the audit log keeps of an assignment. */
function assignmentSnapshot(a: ExamStaffRow): Record<string, unknown> {
  return { exam_id: a.exam_id, staff_id: a.staff_id, role: a.role };
}

/** Teams, and the proctors and graders assigned to exams. */
export class TeamService {
  private readonly repo: TeamRepository;

  constructor(
    private readonly db: Db,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly clock: () => number,
  ) {
    this.repo = new TeamRepository(db);
  }

  /** Every team with its member and exam counts. */
  async list(actor: StaffActor): Promise<TeamView[]> {
    authorize(actor, api.teamList);
    return (await this.repo.list()).map(toView);
  }

  /** Creates a team; a name already taken answers conflict. */
  async create(actor: StaffActor, name: string): Promise<TeamView> {
    authorize(actor, api.teamCreate);
    return this.uniqueName(() =>
      this.db.transaction().execute(async (trx) => {
        const repo = new TeamRepository(trx);
        if (await repo.findByName(name)) throw fail('conflict', `a team named ${name} already exists`);
        const row = await repo.create(name, this.clock());
        await this.audit.with(trx).record(actor, 'team.create', { kind: 'team', id: row.id }, null, snapshot(row));
        return toView((await repo.find(row.id))!);
      }),
    );
  }

  /** Renames a team. */
  async rename(actor: StaffActor, id: number, name: string): Promise<TeamView> {
    await this.access.requireFor(actor, api.teamUpdate, id);
    return this.uniqueName(() =>
      this.db.transaction().execute(async (trx) => {
        const repo = new TeamRepository(trx);
        const before = await repo.find(id);
        if (!before) throw fail('not_found', `no such team ${id}`);
        const taken = await repo.findByName(name);
        if (taken && taken.id !== id) throw fail('conflict', `a team named ${name} already exists`);
        await repo.rename(id, name);
        await this.audit
          .with(trx)
          .record(actor, 'team.update', { kind: 'team', id }, snapshot(before), snapshot({ id, name }));
        return toView({ ...before, name });
      }),
    );
  }

  /** Two requests taking one name at once: the unique index refuses the second. */
  private async uniqueName<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('conflict', 'a team with this name already exists');
      throw err;
    }
  }

  /** An exam's proctors and graders, and those the actor may assign to it. */
  async examStaff(actor: StaffActor, examId: number): Promise<ExamStaffListData> {
    const [exam] = await this.access.requireFor(actor, api.examStaffList, examId);
    const list = await this.repo.assignments(examId);
    // An admin may give any exam anyone; an author (or a proctor looking) only the exam's team's members.
    const assignable = await this.repo.assignable(actor.role === 'admin' ? null : (exam!.teamId ?? -1));
    return {
      list: list.map((a) => ({
        exam_id: a.exam_id,
        staff_id: a.staff_id,
        name: a.name,
        role: a.role as ExamStaffRole,
        disabled: a.disabled === 1,
        created_at: a.created_at,
      })),
      assignable: assignable.map((m) => ({
        staff_id: m.id,
        name: m.name,
        role: m.role as ExamStaffRole,
        disabled: m.disabled === 1,
      })),
    };
  }

  /**
   * Assigns a proctor or grader to an exam. The account's role must be the assignment's (access follows the
   * account's current role), and it must be one the actor may see: an author assigns their team's members.
   */
  async assign(actor: StaffActor, examId: number, staffId: number, role: ExamStaffRole): Promise<ExamStaffView> {
    await this.access.requireFor(actor, api.examStaffAssign, examId);
    await this.assignableMember(actor, staffId, role);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const repo = new TeamRepository(trx);
        if (await repo.assignment(examId, staffId, role)) {
          throw fail('conflict', `staff ${staffId} is already assigned to exam ${examId} as ${role}`);
        }
        const row = await repo.assign({ exam_id: examId, staff_id: staffId, role, created_at: this.clock() });
        await this.audit
          .with(trx)
          .record(actor, 'exam_staff.assign', { kind: 'exam', id: examId }, null, assignmentSnapshot(row));
        const member = (await new StaffRepository(trx).findById(staffId))!;
        return { ...row, role, name: member.name, disabled: member.disabled === 1 };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw fail('conflict', `staff ${staffId} is already assigned to exam ${examId} as ${role}`);
      }
      throw err;
    }
  }

  /** Takes a proctor or grader off an exam. */
  async unassign(actor: StaffActor, examId: number, staffId: number, role: ExamStaffRole): Promise<void> {
    await this.access.requireFor(actor, api.examStaffUnassign, examId);
    await this.db.transaction().execute(async (trx) => {
      const repo = new TeamRepository(trx);
      const row = await repo.assignment(examId, staffId, role);
      if (!row) throw fail('not_found', `staff ${staffId} is not assigned to exam ${examId} as ${role}`);
      await repo.unassign(examId, staffId, role);
      await this.audit
        .with(trx)
        .record(actor, 'exam_staff.unassign', { kind: 'exam', id: examId }, assignmentSnapshot(row), null);
    });
  }

  /** The account to assign: one the actor reaches (else 404, as for any resource), in the assignment's role. */
  private async assignableMember(actor: StaffActor, staffId: number, role: ExamStaffRole): Promise<void> {
    // Reaching an account is not managing it: an author reaches their own team's members.
    await this.access.require(actor, 'exam.manage', 'staff', staffId);
    const member = await new StaffRepository(this.db).findById(staffId);
    if (!member) throw fail('not_found', `no such staff ${staffId}`);
    if (member.role !== role) {
      throw fail('validation_error', `staff_id: staff ${staffId} is a ${member.role}, not a ${role}`);
    }
  }
}
