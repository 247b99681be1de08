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
import { createHash, randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { generateSecret, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';
import { fail } from '../errors.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { StaffRepository, type StaffRow, type StaffWithTeam } from '../repositories/staff.js';
import { TeamRepository } from '../repositories/teams.js';
import { authorize, type AccessService, type StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { ServiceLog } from '../log.js';
import type { TokenService } from './tokens.js';
import { SEALED_PREFIX, TotpSecretBox, totpKey } from './totpSecrets.js';

/** A hash to verify against when the phone is unknown, so both cases take the same time. */
const DUMMY_HASH = argon2.hash('examhall-no-such-account');

/** How far (seconds) a code may be off the server's clock: one 30-second step either way, for clock drift and typing. */
const TOTP_TOLERANCE_S = 30;
/** The issuer authenticator apps show next to the account. */
const TOTP_ISSUER = 'Examhall';
/** How many recovery codes an enrolment hands out. */
const RECOVERY_CODES = 10;
/** How long after its window ended a row of login tries is kept before the periodic sweep removes it. */
const LOGIN_TRIES_KEPT_MS = 86_400_000;
/** Rows of login tries one statement of the sweep removes at most. */
const LOGIN_TRIES_SWEEP_BATCH = 1_000;

/**
 * Recovery codes are 50 random bits each, so a plain SHA-256 is enough to keep them from being read back
 * (no dictionary to try), and a login can look one up by its hash.
 */
function recoveryHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** A new recovery code: 10 characters of [a-z0-9] without look-alikes, shown as xxxxx-xxxxx. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/** Whether the operator's policy asks this account for a second factor it does not have yet. */
function mustEnrol(row: StaffRow, config: Config): boolean {
  return config.staffTotpRequiredForAdmins && row.role === 'admin' && row.totp_secret === null;
}

function toView(row: StaffWithTeam, config: Config): StaffView {
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

/** What the audit log keeps of an account: everything the console shows but its permissions (the role says them). */
function snapshot(row: StaffRow): Record<string, unknown> {
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

function toActor(row: StaffRow, config: Config): StaffActor {
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

/** Dependencies of staff accounts. */
export interface StaffDeps {
  config: Config;
  db: Db;
  limiter: RateLimiter;
  tokens: TokenService;
  access: AccessService;
  audit: AuditService;
  clock: () => number;
  /** Where the warning about a key generated without TOTP_KEY goes. */
  log: ServiceLog;
}

/** What a login presents besides phone and password. */
export interface LoginExtras {
  /** The client's address, for the limit per address. */
  ip: string;
  /** A current TOTP code, when the account has a second factor. */
  totpCode?: string | undefined;
  /** Or one of its recovery codes. */
  recoveryCode?: string | undefined;
}

/** Password hashing; a property of the service so that tests can count the (slow) verifications. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** Staff accounts: password login, the actor behind a token, account management. */
export class StaffService {
  private readonly repo: StaffRepository;
  private readonly teams: TeamRepository;
  /** argon2, as the login and account changes use it. */
  readonly passwords: PasswordHasher = {
    hash: (password) => argon2.hash(password),
    verify: (hash, password) => argon2.verify(hash, password),
  };

  /** Made on first use, so commands that never read a secret never need (or generate) a key. */
  private box: TotpSecretBox | undefined;

  constructor(private readonly deps: StaffDeps) {
    this.repo = new StaffRepository(deps.db);
    this.teams = new TeamRepository(deps.db);
  }

  private secrets(): TotpSecretBox {
    this.box ??= new TotpSecretBox(totpKey(this.deps.config, this.deps.log));
    return this.box;
  }

  /**
   * The one gate of every check of a staff password or TOTP code: reserves a try against the lock of `phone`
   * before anything is checked, in one atomic statement, so however many checks arrive at once no more than
   * STAFF_LOGIN_RULES.maxFailures run in a window, and refuses with `account_locked` once it is reached. A
   * signed-in account's checks count under its own phone, the login's key: guesses through a stolen session
   * (turning the second factor off with a password) spend the same tries a login would.
   */
  private async reserveTry(phone: string): Promise<void> {
    const now = this.deps.clock();
    if (!(await this.repo.reserveLoginTry(phone, now, STAFF_LOGIN_RULES.maxFailures, STAFF_LOGIN_RULES.windowMs))) {
      throw fail('account_locked');
    }
  }

  /**
   * A check of a signed-in account's password or code as one reserved try (see reserveTry). A right answer
   * gives its try back but clears nothing: only a full login does, or a session could reset its own lock.
   */
  private async guarded<T>(phone: string, check: () => T | Promise<T>): Promise<T> {
    await this.reserveTry(phone);
    const result = await check();
    if (result !== null && result !== false) await this.repo.releaseLoginTry(phone);
    return result;
  }

  /**
   * Password login, then the second factor when the account has one. Each try is reserved before the
   * password is checked (reserveTry: an atomic count per phone, known account or not), so however many arrive
   * at once no more than STAFF_LOGIN_RULES.maxFailures are ever checked in a window; only a full success clears
   * them. A right password without the code the account needs gives its try back and answers `totp_required`; a
   * wrong code counts like a wrong password. Each address has its own limit on top.
   */
  async login(
    phone: string,
    password: string,
    extras: LoginExtras,
  ): Promise<{ token: string; expiresAt: number; staff: StaffView }> {
    const perIp = await this.deps.limiter.hit(
      `staff-login:ip:${extras.ip}`,
      this.deps.config.staffLoginIpLimit,
      STAFF_LOGIN_RULES.windowMs,
    );
    if (!perIp.allowed) throw fail('rate_limited', 'too many staff logins from this address');
    await this.reserveTry(phone);
    const now = this.deps.clock();
    const row = await this.repo.findByPhone(phone);
    const ok = await this.passwords.verify(row?.password_hash ?? (await DUMMY_HASH), password);
    if (!row || !ok || row.disabled === 1) throw fail('invalid_credentials');
    let detail = '';
    if (row.totp_secret !== null) {
      if (extras.totpCode === undefined && extras.recoveryCode === undefined) {
        await this.repo.releaseLoginTry(phone);
        throw fail('totp_required');
      }
      if (extras.totpCode !== undefined) {
        const secret = this.secrets().open(row.totp_secret, row.id);
        if (!(await this.acceptTotp(row.id, secret, extras.totpCode))) throw fail('totp_invalid');
      } else if (!(await this.repo.useRecoveryCode(row.id, recoveryHash(extras.recoveryCode!), now))) {
        throw fail('totp_invalid');
      } else {
        detail = 'recovery code used';
      }
    }
    await this.repo.clearLoginTries(phone);
    const { token, expiresAt } = await this.deps.tokens.issue('staff', row.id, STAFF_TOKEN_HOURS * 3_600_000);
    await this.deps.audit.record(
      toActor(row, this.deps.config),
      'staff.login',
      { kind: 'staff', id: row.id },
      null,
      null,
      detail,
    );
    return { token, expiresAt, staff: await this.view(row.id) };
  }

  /** The time step of `code` when it is a current code of `secret`, else null. */
  private totpStep(secret: string, code: string): number | null {
    const result = verifySync({
      secret,
      token: code,
      epoch: Math.floor(this.deps.clock() / 1000),
      epochTolerance: TOTP_TOLERANCE_S,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }

  /** Checks a code and uses up its time step, so a code seen once (over a shoulder, in a proxy) is not good again. */
  private async acceptTotp(id: number, secret: string, code: string): Promise<boolean> {
    const step = this.totpStep(secret, code);
    return step !== null && (await this.repo.useTotpStep(id, step));
  }

  /**
   * Starts enrolling a second factor on the actor's own account: a new secret, kept aside until a code
   * confirms it. The secret is answered this once (and never logged); enrolling again replaces it.
   */
  async enrolTotp(actor: StaffActor): Promise<{ secret: string; otpauth_uri: string; qr_svg: string }> {
    authorize(actor, api.staffTotpEnrol);
    const row = await this.repo.findById(actor.id);
    if (!row) throw fail('not_logged_in');
    if (row.totp_secret !== null) throw fail('conflict', 'two-factor authentication is already on; turn it off first');
    const secret = generateSecret();
    const uri = generateURI({ issuer: TOTP_ISSUER, label: row.phone, secret });
    await this.deps.db.transaction().execute(async (trx) => {
      await new StaffRepository(trx).setPendingTotp(row.id, this.secrets().seal(secret, row.id));
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'staff.totp_enrol',
          { kind: 'staff', id: row.id },
          snapshot(row),
          snapshot(row),
          'enrolment started',
        );
    });
    const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
    return { secret, otpauth_uri: uri, qr_svg: svg };
  }

  /** Turns the enrolled secret on with one of its codes; answers the recovery codes, shown this once. */
  async confirmTotp(actor: StaffActor, code: string): Promise<{ recovery_codes: string[] }> {
    authorize(actor, api.staffTotpConfirm);
    const row = await this.repo.findById(actor.id);
    if (!row) throw fail('not_logged_in');
    if (row.totp_secret !== null) throw fail('conflict', 'two-factor authentication is already on');
    const pending = row.totp_pending_secret;
    if (pending === null) throw fail('conflict', 'no enrolment in progress; start one first');
    const secret = this.secrets().open(pending, row.id);
    const step = await this.guarded(row.phone, () => this.totpStep(secret, code));
    if (step === null) throw fail('totp_invalid');
    // Stored anew: an enrolment begun before secrets were encrypted is encrypted as it is turned on.
    const stored = TotpSecretBox.isSealed(pending) ? pending : this.secrets().seal(secret, row.id);
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.deps.db.transaction().execute(async (trx) => {
      const repo = new StaffRepository(trx);
      if (!(await repo.confirmTotp(row.id, pending, stored, step))) {
        throw fail('conflict', 'the enrolment changed meanwhile; start again');
      }
      await repo.replaceRecoveryCodes(row.id, codes.map(recoveryHash), this.deps.clock());
      await this.deps.audit.with(trx).record(actor, 'staff.totp_enable', { kind: 'staff', id: row.id }, snapshot(row), {
        ...snapshot(row),
        totp_enabled: true,
      });
    });
    return { recovery_codes: codes.map((c) => `${c.slice(0, 5)}-${c.slice(5)}`) };
  }

  /** Turns the actor's second factor off, proven by a current code or the password. */
  async disableTotp(
    actor: StaffActor,
    proof: { code?: string | undefined; password?: string | undefined },
  ): Promise<void> {
    authorize(actor, api.staffTotpDisable);
    const row = await this.repo.findById(actor.id);
    if (!row) throw fail('not_logged_in');
    const stored = row.totp_secret;
    if (stored === null) throw fail('conflict', 'two-factor authentication is not on');
    const proven = await this.guarded(row.phone, () =>
      proof.code !== undefined
        ? this.acceptTotp(row.id, this.secrets().open(stored, row.id), proof.code)
        : this.passwords.verify(row.password_hash, proof.password ?? ''),
    );
    if (!proven) throw fail(proof.code !== undefined ? 'totp_invalid' : 'password_incorrect');
    await this.deps.db.transaction().execute(async (trx) => {
      await new StaffRepository(trx).disableTotp(row.id);
      await this.deps.audit
        .with(trx)
        .record(actor, 'staff.totp_disable', { kind: 'staff', id: row.id }, snapshot(row), {
          ...snapshot(row),
          totp_enabled: false,
        });
    });
  }

  /**
   * Turns another account's second factor off, as when its authenticator is lost: the secret, an enrolment in
   * progress and the recovery codes go, and its tokens are revoked, so it signs in again with the password alone
   * (and enrols anew where the operator requires it). One's own account is refused: turning it off there takes a
   * code or the password (disableTotp), which an unattended session does not have.
   */
  async resetTotp(actor: StaffActor, id: number): Promise<void> {
    await this.deps.access.requireFor(actor, api.staffResetTotp, id);
    if (id === actor.id) {
      throw fail('forbidden', 'turn your own second factor off with a current code or your password');
    }
    await this.deps.db.transaction().execute(async (trx) => {
      const repo = new StaffRepository(trx);
      const row = await repo.findById(id);
      if (!row) throw fail('not_found', `no such staff ${id}`);
      if (row.totp_secret === null) throw fail('conflict', 'this account has no second factor to reset');
      await repo.disableTotp(id);
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'staff.totp_reset',
          { kind: 'staff', id },
          snapshot(row),
          { ...snapshot(row), totp_enabled: false },
          'second factor reset',
        );
    });
    // After the commit: SQLite's one connection is the transaction's until then.
    await this.deps.tokens.revokeAll('staff', id);
  }

  /**
   * Encrypts the TOTP secrets stored before they were encrypted (run at start; also makes the key, so a missing
   * TOTP_KEY is warned about then). Each row is replaced only while it still holds what was read, so a change
   * made meanwhile by a request is never overwritten. Answers how many accounts it encrypted.
   */
  async sealPlainSecrets(): Promise<number> {
    const box = this.secrets();
    let sealed = 0;
    for (const row of await this.repo.plainTotpSecrets(SEALED_PREFIX)) {
      const seal = (v: string | null) => (v === null || TotpSecretBox.isSealed(v) ? v : box.seal(v, row.id));
      const from = { totp_secret: row.totp_secret, totp_pending_secret: row.totp_pending_secret };
      const to = { totp_secret: seal(row.totp_secret), totp_pending_secret: seal(row.totp_pending_secret) };
      if (await this.repo.replaceTotpSecrets(row.id, from, to)) sealed += 1;
    }
    return sealed;
  }

  /**
   * Removes the login tries whose window ended more than a day ago (a periodic task): an ended window counts for
   * nothing, and every phone ever tried, account or not, would otherwise stay in the table. In batches, so that no
   * statement holds the table for long. Answers how many rows went.
   */
  async sweepLoginTries(batch = LOGIN_TRIES_SWEEP_BATCH): Promise<number> {
    const before = this.deps.clock() - LOGIN_TRIES_KEPT_MS;
    let removed = 0;
    let n: number;
    do {
      n = await this.repo.deleteEndedLoginTries(before, batch);
      removed += n;
    } while (n === batch);
    return removed;
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
    const id = await this.deps.tokens.resolve('staff', token);
    if (id === null) return null;
    const row = await this.repo.findById(id);
    return row && row.disabled === 0 ? toActor(row, this.deps.config) : null;
  }

  private async view(id: number, db: Db = this.deps.db): Promise<StaffView> {
    const row = await new StaffRepository(db).findWithTeam(id);
    if (!row) throw fail('not_found', `no such staff ${id}`);
    return toView(row, this.deps.config);
  }

  /** The actor's own account. */
  async me(actor: StaffActor): Promise<StaffView> {
    authorize(actor, api.staffMe);
    const row = await this.repo.findWithTeam(actor.id);
    if (!row) throw fail('not_logged_in');
    return toView(row, this.deps.config);
  }

  /** Revokes the actor's token. */
  async logout(actor: StaffActor, token: string): Promise<void> {
    authorize(actor, api.staffLogout);
    await this.deps.tokens.revoke(token);
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
    const hash = await this.passwords.hash(password);
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
