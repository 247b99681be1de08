import {
  storedDegree,
  type api,
  type CandidateListData,
  type CandidateView,
  type ParsedBody,
  type ParsedQuery,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import {
  CandidateDirectoryRepository,
  phoneKey,
  WHOLE_VIEW,
  type CandidateFieldsRow,
  type DirectoryEntry,
  type DirectoryRow,
  type PhoneHit,
  type ViewReach,
} from '../repositories/candidateDirectory.js';
import { TokenRepository } from '../repositories/tokens.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { CandidateSessions } from './candidateSessions.js';
import type { SheetCandidate } from './candidateSheet.js';

/** A custom-fields column's JSON as an object of strings (anything else reads as none). */
function customOf(text: string): Record<string, string> {
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
    }
  } catch {
    // a broken value reads as no custom fields
  }
  return {};
}

/** A directory entry as the console shows it (its links and invitations already narrowed to the reader's). */
function toView(e: DirectoryEntry): CandidateView {
  return {
    id: e.id,
    area_code: e.area_code,
    phone: e.phone,
    name: e.name ?? '',
    email: e.email,
    school: e.school ?? '',
    major: e.major ?? '',
    degree: storedDegree(e.degree) ?? '',
    graduation_year: e.graduation_year,
    custom: customOf(e.custom),
    team_ids: e.team_ids,
    invitations: e.invitations,
    created_at: e.created_at,
    last_login_at: e.last_login_at,
  };
}

/** Fields as stored from what a staff member wrote. */
export function fieldsOf(v: SheetCandidate): CandidateFieldsRow {
  return {
    area_code: v.area_code,
    phone: v.phone,
    name: v.name,
    email: v.email,
    school: v.school,
    major: v.major,
    degree: v.degree,
    graduation_year: v.graduation_year,
    custom: JSON.stringify(v.custom),
  };
}

/**
 * What an import writes over an existing candidate: a candidate the team already has takes the file's non-empty
 * values (custom fields merged); one the team does not have yet only has its empty fields filled, so a team
 * never overwrites what another team (or the candidate's own profile) recorded.
 */
export function importedOver(old: DirectoryRow, v: SheetCandidate, overwrite: boolean): CandidateFieldsRow {
  const pick = (was: string | null, now: string) =>
    overwrite ? (now !== '' ? now : (was ?? '')) : was !== null && was !== '' ? was : now;
  const oldCustom = customOf(old.custom);
  return {
    area_code: old.area_code,
    phone: old.phone,
    name: pick(old.name, v.name),
    email: pick(old.email, v.email),
    school: pick(old.school, v.school),
    major: pick(old.major, v.major),
    degree: pick(old.degree, v.degree),
    graduation_year: overwrite
      ? (v.graduation_year ?? old.graduation_year)
      : (old.graduation_year ?? v.graduation_year),
    custom: JSON.stringify(overwrite ? { ...oldCustom, ...v.custom } : { ...v.custom, ...oldCustom }),
  };
}

type ListQuery = ParsedQuery<typeof api.candidateList>;
type CreateBody = ParsedBody<typeof api.candidateCreate>;
type UpdateBody = ParsedBody<typeof api.candidateUpdate>;

/** True when a person found by phone is only other teams': a non-admin may neither see nor claim them. */
export const othersOnly = (hit: PhoneHit) => !hit.linked && hit.otherTeams;

/** The team a staff member's writes go to: their own, or (an admin, or anyone naming their own) the one named. */
export async function writeTeam(
  access: Pick<AccessService, 'require'>,
  actor: StaffActor,
  teamId: number | undefined,
): Promise<number | null> {
  if (teamId === undefined) {
    if (actor.role !== 'admin' && actor.teamId === null) {
      throw fail('forbidden', 'you belong to no team: an admin must add you to one first');
    }
    return actor.teamId;
  }
  await access.require(actor, 'candidate.manage', 'team', teamId);
  return teamId;
}

/** What the candidate directory needs. */
export interface CandidateDeps {
  access: AccessService;
  audit: AuditService;
  /** The candidates kept per process: an edit makes them forget the candidate. */
  sessions: Pick<CandidateSessions, 'changed'>;
  clock: () => number;
}

/**
 * The candidate directory: staff add, edit and list candidates; a candidate is seen and changed by the teams
 * linked to it (an admin: all), and each team's view shows only its own link and the invitations to exams it can
 * see. A person linked to no team (who logged in by themselves) may be added by any team; one only other teams
 * have is refused (an admin adds them). Imports of lists are in candidateImport.ts.
 */
export class CandidateService {
  private readonly repo: CandidateDirectoryRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: CandidateDeps,
  ) {
    this.repo = new CandidateDirectoryRepository(db);
  }

  /** What the actor's views of a candidate show. */
  private reachOf(actor: StaffActor): ViewReach {
    return { team: this.deps.access.teamFilter(actor), exams: this.deps.access.examFilter(actor) };
  }

  /** One page of the candidates the actor may see. */
  async list(actor: StaffActor, q: ListQuery): Promise<CandidateListData> {
    const view = this.reachOf(actor);
    const { rows, total, all, loggedIn } = await this.repo.list(
      { reach: view.team, exams: view.exams, teamId: q.team_id, q: q.q, school: q.school, login: q.login },
      { sort: q.sort, order: q.order, offset: (q.page - 1) * q.page_size, limit: q.page_size },
    );
    return { list: rows.map(toView), total, counts: { all, logged_in: loggedIn, never: all - loggedIn } };
  }

  /** One candidate the actor may see. */
  async detail(actor: StaffActor, id: number): Promise<CandidateView> {
    await this.deps.access.require(actor, 'candidate.read', 'candidate', id);
    const found = await this.repo.byId(id, this.reachOf(actor));
    if (!found) throw fail('not_found', `no such candidate ${id}`);
    return toView(found);
  }

  /**
   * Adds a candidate to the actor's team. A phone already in the directory is that candidate: one the team has
   * takes these fields; one who logged in before being added joins the team, its empty fields filled; one only
   * other teams have is refused (`candidate_in_other_team`) without a word of theirs, unless an admin adds them.
   */
  async create(actor: StaffActor, body: CreateBody): Promise<CandidateView> {
    const teamId = await writeTeam(this.deps.access, actor, body.team_id);
    const now = this.deps.clock();
    const id = await this.db.transaction().execute(async (trx) => {
      const repo = new CandidateDirectoryRepository(trx);
      const existing = (await repo.byPhones([body], teamId)).get(phoneKey(body.area_code, body.phone));
      if (existing && othersOnly(existing) && actor.role !== 'admin') {
        throw fail(
          'candidate_in_other_team',
          `phone: +${body.area_code} ${body.phone} is another team's candidate; an admin can add the person to your team`,
        );
      }
      let candidateId: number;
      if (existing) {
        candidateId = existing.row.id;
        const overwrite = existing.linked || actor.role === 'admin';
        await repo.update(candidateId, importedOver(existing.row, body, overwrite));
      } else {
        [candidateId] = (await repo.create([fieldsOf(body)], now)) as [number];
      }
      if (teamId !== null) await repo.link([candidateId], teamId, actor.id, now);
      await this.deps.audit.with(trx).record(actor, 'candidate.create', { kind: 'candidate', id: candidateId }, null, {
        ...body,
        team_id: teamId,
        existed: existing !== undefined,
      });
      return candidateId;
    });
    this.deps.sessions.changed(id);
    return toView((await this.repo.byId(id, this.reachOf(actor)))!);
  }

  /**
   * Edits a candidate the actor may manage; another candidate's phone is `candidate_phone_taken`. A new phone
   * is who logs in to the account (and reads its results), so it needs an admin unless the actor's team is the
   * only one linked (`candidate_phone_shared`), and it ends the candidate's sessions.
   */
  async update(actor: StaffActor, body: UpdateBody): Promise<CandidateView> {
    await this.deps.access.require(actor, 'candidate.manage', 'candidate', body.candidate_id);
    await this.db.transaction().execute(async (trx) => {
      const repo = new CandidateDirectoryRepository(trx);
      const before = await repo.byId(body.candidate_id, WHOLE_VIEW);
      if (!before) throw fail('not_found', `no such candidate ${body.candidate_id}`);
      const phoneChanged = before.area_code !== body.area_code || before.phone !== body.phone;
      if (phoneChanged && actor.role !== 'admin' && before.team_ids.some((t) => t !== actor.teamId)) {
        throw fail(
          'candidate_phone_shared',
          `phone: candidate ${body.candidate_id} is also another team's candidate: only an admin can change the phone`,
        );
      }
      const holder = (await repo.byPhones([body], null)).get(phoneKey(body.area_code, body.phone));
      if (holder && holder.row.id !== body.candidate_id) {
        const whose = actor.role === 'admin' ? `candidate ${holder.row.id}'s` : "another candidate's";
        throw fail('candidate_phone_taken', `phone: +${body.area_code} ${body.phone} is ${whose}`);
      }
      const fields = fieldsOf(body);
      await repo.update(body.candidate_id, fields);
      // A session of the old phone would otherwise go on as the account the new phone now logs in to.
      if (phoneChanged) await new TokenRepository(trx).revokeAll('candidate', body.candidate_id, this.deps.clock());
      await this.deps.audit
        .with(trx)
        .record(actor, 'candidate.update', { kind: 'candidate', id: body.candidate_id }, toView(before), {
          ...fields,
          custom: body.custom,
          ...(phoneChanged ? { sessions_ended: true } : {}),
        });
    });
    this.deps.sessions.changed(body.candidate_id);
    return this.detail(actor, body.candidate_id);
  }
}
