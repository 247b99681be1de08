import {
  api,
  DEFAULT_AREA_CODE,
  ROLE_PERMISSIONS,
  STAFF_LOGIN_RULES,
  STAFF_ROLES,
  STAFF_TOKEN_HOURS,
  type StaffRole,
  type StaffView,
} from '@examhall/contract';
import argon2 from 'argon2';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';
import { fail } from '../http/errors.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { StaffRepository, type StaffRow, type StaffWithTeam } from '../repositories/staff.js';
import { TeamRepository } from '../repositories/teams.js';
import { authorize, type AccessService, type StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { TokenService } from './tokens.js';

/** A hash to verify against when the phone is unknown, so both cases take the same time. */
const DUMMY_HASH = argon2.hash('examhall-no-such-account');

function toView(row: StaffWithTeam): StaffView {
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
  };
}

/** What the audit log keeps of an account: everything the console shows but its permissions (the role says them). */
function snapshot(row: StaffRow): Record<string, unknown> {
  return {
    id: row.id,
    phone: row.phone,
    name: row.name,
    role: row.role,
    team_id: row.team_id,
    disabled: row.disabled === 1,
  };
}

function toActor(row: StaffRow): StaffActor {
  return { id: row.id, name: row.name, phone: row.phone, role: row.role as StaffRole, teamId: row.team_id };
}

/** POST /admin/staff/update body as the route receives it. */
export type StaffUpdate = z.output<typeof api.staffUpdate.body>;

/** Dependencies of staff accounts. */
export interface StaffDeps {
  db: Db;
  limiter: RateLimiter;
  tokens: TokenService;
  access: AccessService;
  audit: AuditService;
  clock: () => number;
}

/** Staff accounts: password login, the actor behind a token, account management. */
export class StaffService {
  private readonly repo: StaffRepository;
  private readonly teams: TeamRepository;

  constructor(private readonly deps: StaffDeps) {
    this.repo = new StaffRepository(deps.db);
    this.teams = new TeamRepository(deps.db);
  }

  /** Password login; too many failures for a phone lock it for a while. */
  async login(phone: string, password: string): Promise<{ token: string; expiresAt: number; staff: StaffView }> {
    const lockKey = `staff-login:${phone}`;
    if ((await this.deps.limiter.count(lockKey)) >= STAFF_LOGIN_RULES.maxFailures) throw fail('account_locked');
    const row = await this.repo.findByPhone(phone);
    const ok = await argon2.verify(row?.password_hash ?? (await DUMMY_HASH), password);
    if (!row || !ok || row.disabled === 1) {
      await this.deps.limiter.hit(lockKey, STAFF_LOGIN_RULES.maxFailures, STAFF_LOGIN_RULES.windowMs);
      throw fail('invalid_credentials');
    }
    await this.deps.limiter.reset(lockKey);
    const { token, expiresAt } = await this.deps.tokens.issue('staff', row.id, STAFF_TOKEN_HOURS * 3_600_000);
    await this.deps.audit.record(toActor(row), 'staff.login', { kind: 'staff', id: row.id }, null, null);
    return { token, expiresAt, staff: await this.view(row.id) };
  }

  /** The actor behind a staff token, or null; a disabled account's tokens stop working at once. */
  async resolve(token: string | undefined): Promise<StaffActor | null> {
    const id = await this.deps.tokens.resolve('staff', token);
    if (id === null) return null;
    const row = await this.repo.findById(id);
    return row && row.disabled === 0 ? toActor(row) : null;
  }

  private async view(id: number, db: Db = this.deps.db): Promise<StaffView> {
    const row = await new StaffRepository(db).findWithTeam(id);
    if (!row) throw fail('not_found', `no such staff ${id}`);
    return toView(row);
  }

  /** The actor's own account. */
  async me(actor: StaffActor): Promise<StaffView> {
    authorize(actor, api.staffMe);
    const row = await this.repo.findWithTeam(actor.id);
    if (!row) throw fail('not_logged_in');
    return toView(row);
  }

  /** Revokes the actor's token. */
  async logout(actor: StaffActor, token: string): Promise<void> {
    authorize(actor, api.staffLogout);
    await this.deps.tokens.revoke(token);
  }

  /** Every staff account. */
  async list(actor: StaffActor): Promise<StaffView[]> {
    authorize(actor, api.staffList);
    return (await this.repo.list()).map(toView);
  }

  /** A team id given in a body must name a team: a wrong one is bad input, not a missing resource. */
  private async checkTeam(teamId: number | null | undefined, db: Db): Promise<void> {
    if (teamId === undefined || teamId === null) return;
    if (!(await new TeamRepository(db).find(teamId))) throw fail('validation_error', `team_id: no such team ${teamId}`);
  }

  /** Creates a staff account; the same phone twice answers conflict. */
  async create(actor: StaffActor, input: z.output<typeof api.staffCreate.body>): Promise<StaffView> {
    authorize(actor, api.staffCreate);
    const passwordHash = await argon2.hash(input.password);
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
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
        return this.view(row.id, trx);
      });
    } catch (err) {
      // Two creations of one phone at once: the unique index refuses the second.
      if (isUniqueViolation(err)) throw fail('conflict', 'a staff account with this phone already exists');
      throw err;
    }
  }

  /**
   * Changes an account's name, role, team or disabled state. Disabling revokes its tokens (they already stop
   * working, as `resolve` reads the state; revoking keeps them dead if the account is enabled again). The
   * last enabled admin can be neither disabled nor given another role.
   */
  async update(actor: StaffActor, input: StaffUpdate): Promise<StaffView> {
    await this.deps.access.requireFor(actor, api.staffUpdate, input.id);
    const { view, disabled } = await this.deps.db.transaction().execute(async (trx) => {
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
      return { view: await this.view(before.id, trx), disabled: after.disabled === 1 && before.disabled === 0 };
    });
    // After the commit: SQLite's one connection is the transaction's until then.
    if (disabled) await this.deps.tokens.revokeAll('staff', input.id);
    return view;
  }

  /**
   * Sets an account's password and revokes its tokens. The log records that it happened (the account before
   * and after, unchanged but for that), never the password or its hash.
   */
  async resetPassword(actor: StaffActor, id: number, password: string): Promise<void> {
    await this.deps.access.requireFor(actor, api.staffResetPassword, id);
    const hash = await argon2.hash(password);
    await this.deps.db.transaction().execute(async (trx) => {
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
    const hash = await argon2.hash(password);
    if (existing) {
      if (!(await argon2.verify(existing.password_hash, password))) {
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
