import {
  api,
  DEFAULT_AREA_CODE,
  ROLE_PERMISSIONS,
  STAFF_ROLES,
  type StaffRole,
  type StaffView,
} from '@examhall/contract';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';
import { fail } from '../errors.js';
import { StaffRepository, type StaffRow, type StaffWithTeam } from '../repositories/staff.js';
import { TeamRepository } from '../repositories/teams.js';
import { authorize, type AccessService, type StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { PasswordHasher, StaffCredentials } from './staffCredentials.js';
import type { TokenService } from './tokens.js';

/** What an account's views need of the configuration: whether admins must have a second factor. */
type EnrolPolicy = Pick<Config, 'staffTotpRequiredForAdmins'>;

/** Whether the operator's policy asks this account for a second factor it does not have yet. */
function mustEnrol(row: StaffRow, config: EnrolPolicy): boolean {
  return config.staffTotpRequiredForAdmins && row.role === 'admin' && row.totp_secret === null;
}

function toView(row: StaffWithTeam, config: EnrolPolicy): StaffView {
  const role = row.role as StaffRole;
  return {
    id: row.id,
    phone: row.phone,
    name: row.name,
    role,
    permissions: [...ROLE_PERMISSIONS[role]],
    created_at: row.created_at,
    disabled: row.disabled === 1,
    team_id: row.team_id,
    team_name: row.team_name,
    totp_enabled: row.totp_secret !== null,
    totp_enrolment_required: mustEnrol(row, config),
  };
}

/** An account with its team as the console shows it. */
export async function staffView(db: Db, id: number, config: EnrolPolicy): Promise<StaffView> {
  const row = await new StaffRepository(db).findWithTeam(id);
  if (!row) throw fail('not_found', `no such staff ${id}`);
  return toView(row, config);
}

/** What the audit log keeps of an account: everything the console shows but its permissions (the role says them). */
export function snapshot(row: StaffRow): Record<string, unknown> {
  return {
    id: row.id,
    phone: row.phone,
    name: row.name,
    role: row.role,
    team_id: row.team_id,
    disabled: row.disabled === 1,
    totp_enabled: row.totp_secret !== null,
  };
}

/** The actor an account acts as. */
export function toActor(row: StaffRow, config: EnrolPolicy): StaffActor {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    role: row.role as StaffRole,
    teamId: row.team_id,
    ...(mustEnrol(row, config) ? { mustEnrolSecondFactor: true } : {}),
  };
}

/** POST /admin/staff/update body as the route receives it. */
export type StaffUpdate = z.output<typeof api.staffUpdate.body>;

/** What staff accounts need. */
export interface StaffDeps {
  config: EnrolPolicy;
  tokens: Pick<TokenService, 'resolveSession' | 'revokeAll'>;
  access: AccessService;
  audit: AuditService;
  /** The password hasher the login shares. */
  credentials: Pick<StaffCredentials, 'passwords'>;
  clock: () => number;
}

/**
 * Staff accounts: the actor behind a token or an id, the actor's own account, and account management. Signing in
 * is in staffLogin.ts, the second factor in staffTotp.ts.
 */
export class StaffService {
  private readonly repo: StaffRepository;
  /** argon2, as the login and account changes use it (the one object every staff service shares). */
  readonly passwords: PasswordHasher;

  constructor(
    private readonly db: Db,
    private readonly deps: StaffDeps,
  ) {
    this.repo = new StaffRepository(db);
    this.passwords = deps.credentials.passwords;
  }

  /** The oldest enabled admin account, who the command line acts as (its changes are audited under that name). */
  async operator(): Promise<StaffActor | null> {
    const row = (await this.repo.list()).find((r) => r.role === 'admin' && r.disabled === 0);
    return row ? toActor(row, this.deps.config) : null;
  }

  /** The account a job runs as, by id, or null when it is gone or disabled (a job started by it then fails). */
  async actorById(id: number): Promise<StaffActor | null> {
    const row = await this.repo.findById(id);
    return row && row.disabled === 0 ? toActor(row, this.deps.config) : null;
  }

  /** The actor behind a staff token, or null; a disabled account's tokens stop working at once. */
  async resolve(token: string | undefined): Promise<StaffActor | null> {
    const session = await this.deps.tokens.resolveSession('staff', token);
    if (session === null) return null;
    const row = await this.repo.findById(session.subjectId);
    if (!row || row.disabled === 1) return null;
    const actor = toActor(row, this.deps.config);
    return session.sessionId === null ? actor : { ...actor, sessionId: session.sessionId };
  }

  /** The actor's own account. */
  async me(actor: StaffActor): Promise<StaffView> {
    authorize(actor, api.staffMe);
    const row = await this.repo.findWithTeam(actor.id);
    if (!row) throw fail('not_logged_in');
    return toView(row, this.deps.config);
  }

  /** Every staff account. */
  async list(actor: StaffActor): Promise<StaffView[]> {
    authorize(actor, api.staffList);
    return (await this.repo.list()).map((r) => toView(r, this.deps.config));
  }

  /** A team id given in a body must name a team: a wrong one is bad input, not a missing resource. */
  private async checkTeam(teamId: number | null | undefined, db: Db): Promise<void> {
    if (teamId === undefined || teamId === null) return;
    if (!(await new TeamRepository(db).find(teamId))) throw fail('validation_error', `team_id: no such team ${teamId}`);
  }

  /** Creates a staff account; the same phone twice answers conflict. */
  async create(actor: StaffActor, input: z.output<typeof api.staffCreate.body>): Promise<StaffView> {
    authorize(actor, api.staffCreate);
    const passwordHash = await this.passwords.hash(input.password);
    try {
      return await this.db.transaction().execute(async (trx) => {
        const repo = new StaffRepository(trx);
        if (await repo.findByPhone(input.phone)) {
          throw fail('conflict', 'a staff account with this phone already exists');
        }
        await this.checkTeam(input.team_id, trx);
        const row = await repo.create({
          phone: input.phone,
          area_code: input.area_code,
          name: input.name,
          role: input.role,
          password_hash: passwordHash,
          disabled: 0,
          created_at: this.deps.clock(),
          team_id: input.team_id ?? null,
        });
        await this.deps.audit
          .with(trx)
          .record(actor, 'staff.create', { kind: 'staff', id: row.id }, null, snapshot(row));
        return staffView(trx, row.id, this.deps.config);
      });
    } catch (err) {
      // Two creations of one phone at once: the unique index refuses the second.
      if (isUniqueViolation(err)) throw fail('conflict', 'a staff account with this phone already exists');
      throw err;
    }
  }

  /**
   * Changes an account's name, role, team or disabled state. Disabling ends its sessions (their tokens already
   * stop working, as `resolve` reads the state; revoking keeps them dead if the account is enabled again), and so
   * does a new role or team: what the account may do changed, so it signs in again. The last enabled admin can be
   * neither disabled nor given another role.
   */
  async update(actor: StaffActor, input: StaffUpdate): Promise<StaffView> {
    await this.deps.access.requireFor(actor, api.staffUpdate, input.id);
    const { view, signOut } = await this.db.transaction().execute(async (trx) => {
      const repo = new StaffRepository(trx);
      const before = await repo.findById(input.id);
      if (!before) throw fail('not_found', `no such staff ${input.id}`);
      await this.checkTeam(input.team_id, trx);
      const changes: Parameters<StaffRepository['update']>[1] = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.role !== undefined) changes.role = input.role;
      if (input.team_id !== undefined) changes.team_id = input.team_id;
      if (input.disabled !== undefined) changes.disabled = input.disabled ? 1 : 0;
      const after: StaffRow = { ...before, ...changes } as StaffRow;
      const wasAdmin = before.role === 'admin' && before.disabled === 0;
      const staysAdmin = after.role === 'admin' && after.disabled === 0;
      if (wasAdmin && !staysAdmin && (await repo.otherEnabledAdmins(before.id)) === 0) {
        throw fail('last_admin', 'this is the last enabled admin account: it can be neither disabled nor demoted');
      }
      await repo.update(before.id, changes);
      await this.deps.audit
        .with(trx)
        .record(actor, 'staff.update', { kind: 'staff', id: before.id }, snapshot(before), snapshot(after));
      return {
        view: await staffView(trx, before.id, this.deps.config),
        // A disabled account, and one whose role or team changed, signs in again: its sessions end.
        signOut:
          (after.disabled === 1 && before.disabled === 0) ||
          after.role !== before.role ||
          after.team_id !== before.team_id,
      };
    });
    // After the commit: SQLite's one connection is the transaction's until then.
    if (signOut) await this.deps.tokens.revokeAll('staff', input.id);
    return view;
  }

  /**
   * Sets an account's password and revokes its tokens. The log records that it happened (the account before
   * and after, unchanged but for that), never the password or its hash.
   */
  async resetPassword(actor: StaffActor, id: number, password: string): Promise<void> {
    await this.deps.access.requireFor(actor, api.staffResetPassword, id);
    const hash = await this.passwords.hash(password);
    await this.db.transaction().execute(async (trx) => {
      const repo = new StaffRepository(trx);
      const row = await repo.findById(id);
      if (!row) throw fail('not_found', `no such staff ${id}`);
      await repo.setPassword(id, hash, false);
      await this.deps.audit
        .with(trx)
        .record(actor, 'staff.reset_password', { kind: 'staff', id }, snapshot(row), snapshot(row), 'password set');
    });
    await this.deps.tokens.revokeAll('staff', id);
  }

  /**
   * Creates the admin account, or resets its password when the phone exists.
   * Used at start (ADMIN_PHONE/ADMIN_PASSWORD) and by `examhall create-admin`; no actor, so no permission check.
   */
  async ensureAdmin(
    phone: string,
    password: string,
    name = 'Administrator',
  ): Promise<{ created: boolean; id: number }> {
    if (password.length < 8) throw new Error('the admin password must be at least 8 characters');
    const existing = await this.repo.findByPhone(phone);
    const hash = await this.passwords.hash(password);
    if (existing) {
      if (!(await this.passwords.verify(existing.password_hash, password))) {
        await this.repo.setPassword(existing.id, hash);
        const after = { ...existing, disabled: 0 };
        await this.deps.audit.record(
          null,
          'staff.bootstrap',
          { kind: 'staff', id: existing.id },
          snapshot(existing),
          snapshot(after),
          'password set',
        );
      }
      return { created: false, id: existing.id };
    }
    const row = await this.repo.create({
      phone,
      area_code: DEFAULT_AREA_CODE,
      name,
      role: STAFF_ROLES[0],
      password_hash: hash,
      disabled: 0,
      created_at: this.deps.clock(),
    });
    await this.deps.audit.record(null, 'staff.bootstrap', { kind: 'staff', id: row.id }, null, snapshot(row));
    return { created: true, id: row.id };
  }
}
