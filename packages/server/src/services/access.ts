import {
  roleHas,
  type CallDef,
  type ExamStaffRole,
  type Permission,
  type ResourceKind,
  type StaffRole,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../http/errors.js';
import { AccessRepository, examVisible, type ExamFilter, type ResourceOwner } from '../repositories/access.js';

export { examVisible, type ExamFilter, type ResourceOwner };

/** A logged-in staff member. */
export interface StaffActor {
  id: number;
  name: string;
  phone: string;
  role: StaffRole;
  /** The team the member belongs to, or null (an admin needs none; anyone else without one sees no team's). */
  teamId: number | null;
  /** Set while the operator requires a second factor of this account and it has none: only enrolment calls are open. */
  mustEnrolSecondFactor?: true;
}

/** What `teamFilter` answers for a non-admin without a team: no team has id 0, so it matches nothing. */
export const NO_TEAM = 0;

/**
 * The role check of every staff call, made before the body is parsed: the permission comes from the call's
 * entry in the API catalogue, so the route list and the check cannot drift apart.
 */
export function authorize(actor: StaffActor, call: CallDef): void {
  if (call.auth !== 'staff') throw new Error(`${call.path} is not a staff call`);
  if (actor.mustEnrolSecondFactor && !call.beforeSecondFactor) throw fail('totp_enrolment_required');
  if (call.permission && !roleHas(actor.role, call.permission)) {
    throw fail('forbidden', `the ${actor.role} role may not use ${call.method} ${call.path}`);
  }
}

/** Kinds whose resources belong to an exam: reached through the exam's team or an assignment to it. */
const EXAM_BOUND: ReadonlySet<ResourceKind> = new Set(['exam', 'attempt', 'record']);

/**
 * Access per resource, the one check by id every staff service makes. An admin reaches everything; an
 * author the resources of their team; a proctor or grader the exams they are assigned to in their role
 * (and those exams' attempts and records); anyone their own account. A resource out of reach is answered
 * exactly like a missing one, so its existence is not revealed.
 */
export class AccessService {
  private readonly repo: AccessRepository;

  constructor(db: Db) {
    this.repo = new AccessRepository(db);
  }

  /** The same checks reading through `db` (a transaction), so they see what it has written. */
  with(db: Db): AccessService {
    return new AccessService(db);
  }

  /** True when the actor's role holds the permission. */
  can(actor: StaffActor, permission: Permission): boolean {
    return roleHas(actor.role, permission);
  }

  /**
   * Throws `forbidden` (403) when the actor's role lacks `permission`, and `not_found` (404, "no such exam
   * 12") for the first id that is missing or out of the actor's reach. Answers the resources' owners.
   */
  async require(
    actor: StaffActor,
    permission: Permission,
    kind: ResourceKind,
    ids: number | readonly number[],
  ): Promise<ResourceOwner[]> {
    if (!this.can(actor, permission)) {
      throw fail('forbidden', `the ${actor.role} role lacks ${permission}`);
    }
    const wanted = [...new Set(typeof ids === 'number' ? [ids] : ids)];
    const owners = await this.repo.owners(kind, wanted);
    const reachable = await this.reachable(actor, kind, owners);
    // A resource with several owners (a candidate linked to several teams) is reached through any of them.
    const byId = new Map(reachable.map((o) => [o.id, o]));
    for (const id of wanted) {
      if (!byId.has(id)) throw fail('not_found', `no such ${kind} ${id}`);
    }
    return wanted.map((id) => byId.get(id)!);
  }

  /** `require` with the permission and resource kind a catalogue call declares (its `permission` and `scope`). */
  requireFor(actor: StaffActor, call: CallDef, ids: number | readonly number[]): Promise<ResourceOwner[]> {
    if (!call.permission || !call.scope) throw new Error(`${call.path} declares no permission and scope`);
    return this.require(actor, call.permission, call.scope.kind, ids);
  }

  /** For lists of team-owned things (bank folders, questions): null = every team, else the one team id. */
  teamFilter(actor: StaffActor): number | null {
    if (actor.role === 'admin') return null;
    return actor.teamId ?? NO_TEAM;
  }

  /** For lists of exams: which ones the actor may see (apply with `examVisible` in the repository). */
  examFilter(actor: StaffActor): ExamFilter {
    if (actor.role === 'admin') return { kind: 'all' };
    if (actor.role === 'author') return { kind: 'team', teamId: actor.teamId };
    return { kind: 'assigned', staffId: actor.id, role: actor.role satisfies ExamStaffRole };
  }

  /** The owners the actor reaches. */
  private async reachable(actor: StaffActor, kind: ResourceKind, owners: ResourceOwner[]): Promise<ResourceOwner[]> {
    if (actor.role === 'admin') return owners;
    const sameTeam = (o: ResourceOwner) => actor.teamId !== null && o.teamId === actor.teamId;
    if (kind === 'staff') return owners.filter((o) => o.id === actor.id || sameTeam(o));
    if (kind === 'job') return owners.filter((o) => o.staffId === actor.id || sameTeam(o));
    if (!EXAM_BOUND.has(kind) || actor.role === 'author') return owners.filter(sameTeam);
    const assigned = await this.repo.assignedExams(
      actor.id,
      actor.role,
      owners.map((o) => o.examId!),
    );
    return owners.filter((o) => assigned.has(o.examId!));
  }
}
