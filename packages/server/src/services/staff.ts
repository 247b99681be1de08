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
import type { Db } from '../db/database.js';
import { fail } from '../http/errors.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { AuditRepository } from '../repositories/audit.js';
import { StaffRepository, type StaffRow } from '../repositories/staff.js';
import { authorize, type StaffActor } from './access.js';
import type { TokenService } from './tokens.js';

/** A hash to verify against when the phone is unknown, so both cases take the same time. */
const DUMMY_HASH = argon2.hash('examhall-no-such-account');

function toView(row: StaffRow): StaffView {
  const role = row.role as StaffRole;
  return {
    id: row.id,
    phone: row.phone,
    name: row.name,
    role,
    permissions: [...ROLE_PERMISSIONS[role]],
    created_at: row.created_at,
    disabled: row.disabled === 1,
  };
}

function toActor(row: StaffRow): StaffActor {
  return { id: row.id, name: row.name, phone: row.phone, role: row.role as StaffRole };
}

/** Dependencies of staff accounts. */
export interface StaffDeps {
  db: Db;
  limiter: RateLimiter;
  tokens: TokenService;
  clock: () => number;
}

/** Staff accounts: password login, the actor behind a token, account management. */
export class StaffService {
  private readonly repo: StaffRepository;
  private readonly audit: AuditRepository;

  constructor(private readonly deps: StaffDeps) {
    this.repo = new StaffRepository(deps.db);
    this.audit = new AuditRepository(deps.db);
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
    await this.record(row.id, 'staff.login', `staff:${row.id}`, '');
    return { token, expiresAt, staff: toView(row) };
  }

  /** The actor behind a staff token, or null. */
  async resolve(token: string | undefined): Promise<StaffActor | null> {
    const id = await this.deps.tokens.resolve('staff', token);
    if (id === null) return null;
    const row = await this.repo.findById(id);
    return row && row.disabled === 0 ? toActor(row) : null;
  }

  /** The actor's own account. */
  async me(actor: StaffActor): Promise<StaffView> {
    authorize(actor, api.staffMe);
    const row = await this.repo.findById(actor.id);
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

  /** Creates a staff account. */
  async create(
    actor: StaffActor,
    input: { phone: string; area_code: string; name: string; role: StaffRole; password: string },
  ): Promise<StaffView> {
    authorize(actor, api.staffCreate);
    if (await this.repo.findByPhone(input.phone))
      throw fail('conflict', 'a staff account with this phone already exists');
    const row = await this.repo.create({
      phone: input.phone,
      area_code: input.area_code,
      name: input.name,
      role: input.role,
      password_hash: await argon2.hash(input.password),
      disabled: 0,
      created_at: this.deps.clock(),
    });
    await this.record(actor.id, 'staff.create', `staff:${row.id}`, JSON.stringify({ role: row.role }));
    return toView(row);
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
      if (!(await argon2.verify(existing.password_hash, password))) await this.repo.setPassword(existing.id, hash);
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
    await this.record(null, 'staff.bootstrap', `staff:${row.id}`, '');
    return { created: true, id: row.id };
  }

  private async record(actorId: number | null, action: string, target: string, detail: string): Promise<void> {
    await this.audit.record({
      actor_kind: actorId === null ? 'system' : 'staff',
      actor_id: actorId,
      action,
      target,
      detail,
      created_at: this.deps.clock(),
    });
  }
}
