import {
  EXAM_BOUND_KINDS,
  RESOURCE_KINDS,
  roleHas,
  type CallDef,
  type ExamStaffRole,
  type Permission,
  type ResourceKind,
  type StaffRole,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { GradingRepository } from '../repositories/grading.js';
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
  /** The session the call came through (a signed-in browser's; absent for the command line and older tokens). */
  sessionId?: string;
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
const EXAM_BOUND: ReadonlySet<ResourceKind> = new Set(EXAM_BOUND_KINDS);

/** True when a `refs` entry names a resource kind (checked here), not an id the service or nobody checks. */
function isResourceKind(ref: string): ref is ResourceKind {
  return (RESOURCE_KINDS as readonly string[]).includes(ref);
}

/**
 * The ids at a path of a call's input (`a.b`, `list[].c`; the last step may hold one id or a list of them).
 * Anything that is not a number is skipped: the schema has already refused a malformed id.
 */
export function idsAt(input: unknown, path: string): number[] {
  let values: unknown[] = [input];
  for (const step of path.split('.')) {
    const many = step.endsWith('[]');
    const key = many ? step.slice(0, -2) : step;
    values = values.flatMap((v) => {
      if (v === null || typeof v !== 'object') return [];
      const next = (v as Record<string, unknown>)[key];
      return many ? (Array.isArray(next) ? (next as unknown[]) : []) : [next];
    });
  }
  return values.flatMap((v) => (Array.isArray(v) ? (v as unknown[]) : [v])).filter((v) => typeof v === 'number');
}

/** The ids at a path of a call's query and body together (a field is in one or the other). */
function idsIn(input: { query: unknown; body: unknown }, path: string): number[] {
  return [...idsAt(input.query, path), ...idsAt(input.body, path)];
}

/**
 * Access per resource, the one check by id every staff service makes. An admin reaches everything; an
 * author the resources of their team; a proctor or grader the exams they are assigned to in their role
 * (and those exams' attempts and records); anyone their own account. A resource out of reach is answered
 * exactly like a missing one, so its existence is not revealed.
 */
export class AccessService {
  private readonly repo: AccessRepository;

  constructor(private readonly db: Db) {
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

  /**
   * Checks every id a call's input names besides its scope (the catalogue's `refs` of a resource kind), like the
   * scope: one out of reach answers 404. A part of an exam named in a call on an exam (its invitations, slots,
   * versions, attempts, similarity pairs) must also be that exam's, so an exam of one's own cannot carry another's.
   */
  async requireRefs(actor: StaffActor, call: CallDef, input: { query: unknown; body: unknown }): Promise<void> {
    if (!call.refs) return;
    if (!call.permission) throw new Error(`${call.path} declares refs but no permission`);
    let scopeExams: Set<number> | undefined;
    for (const [path, ref] of Object.entries(call.refs)) {
      if (!isResourceKind(ref)) continue;
      const ids = idsIn(input, path);
      if (ids.length === 0) continue;
      const owners = await this.require(actor, call.permission, ref, ids);
      const scope = call.scope;
      if (ref === 'exam' || !EXAM_BOUND.has(ref) || !scope || !EXAM_BOUND.has(scope.kind)) continue;
      scopeExams ??= new Set(
        (await this.require(actor, call.permission, scope.kind, idsIn(input, scope.field))).map((o) => o.examId!),
      );
      const stray = owners.find((o) => !scopeExams!.has(o.examId!));
      if (stray) throw fail('not_found', `no such ${ref} ${stray.id}`);
    }
  }

  /**
   * The blind-marking rule: a grader does not learn who an exam's candidates are while its marking is blind and
   * answers still wait for a mark, so a mark cannot lean on who wrote the answer. Staff of other roles are not
   * marking; once every answer is marked the names may be seen.
   */
  async identityHidden(actor: StaffActor, examId: number): Promise<boolean> {
    if (actor.role !== 'grader') return false;
    if (!(await this.repo.blindMarking(examId))) return false;
    return new GradingRepository(this.db).hasPending(examId);
  }

  /**
   * Refuses a grader a call that answers who candidates are (`identity: 'refused'` in the catalogue) on an exam
   * whose marking is blind; the exam is the one the call's scope names.
   */
  async refuseHiddenIdentity(
    actor: StaffActor,
    call: CallDef,
    input: { query: unknown; body: unknown },
  ): Promise<void> {
    if (call.identity !== 'refused' || actor.role !== 'grader') return;
    const scope = call.scope;
    if (!scope || !EXAM_BOUND.has(scope.kind)) throw new Error(`${call.path} refuses identities but names no exam`);
    const owners = await this.repo.owners(scope.kind, idsIn(input, scope.field));
    for (const examId of new Set(owners.map((o) => o.examId!))) {
      if (await this.identityHidden(actor, examId)) throw fail('blind_marking');
    }
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
