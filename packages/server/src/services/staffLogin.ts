import { STAFF_LOGIN_RULES, STAFF_TOKEN_HOURS, api, type StaffView } from '@examhall/contract';
import argon2 from 'argon2';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { StaffRepository } from '../repositories/staff.js';
import { authorize, type StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { SsoPolicy } from './ssoAdmin.js';
import { staffView, toActor } from './staff.js';
import { recoveryHash, type StaffCredentials } from './staffCredentials.js';
import type { TokenService } from './tokens.js';

/** A hash to verify against when the phone is unknown, so both cases take the same time. */
const DUMMY_HASH = argon2.hash('examhall-no-such-account');

/** How long after its window ended a row of login tries is kept before the periodic sweep removes it. */
const LOGIN_TRIES_KEPT_MS = 86_400_000;
/** Rows of login tries one statement of the sweep removes at most. */
const LOGIN_TRIES_SWEEP_BATCH = 1_000;

/** What a login presents besides phone and password. */
export interface LoginExtras {
  /** The client's address, for the limit per address and the session's record. */
  ip: string;
  /** The browser's description of itself, kept with the session so that its owner can tell it apart. */
  userAgent?: string | undefined;
  /** A current TOTP code, when the account has a second factor. */
  totpCode?: string | undefined;
  /** Or one of its recovery codes. */
  recoveryCode?: string | undefined;
}

/** What staff login needs. */
export interface StaffLoginDeps {
  config: Pick<Config, 'staffLoginIpLimit' | 'staffTotpRequiredForAdmins'>;
  limiter: Pick<RateLimiter, 'hit'>;
  tokens: Pick<TokenService, 'issue' | 'revoke'>;
  audit: AuditService;
  credentials: StaffCredentials;
  /** The single sign-on policy in force: when required, only break-glass admins sign in with a password. */
  ssoPolicy: () => Promise<SsoPolicy>;
  clock: () => number;
}

/** Staff sign-in: password login with the second factor, logout, and the sweep of ended login tries. */
export class StaffLoginService {
  private readonly repo: StaffRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: StaffLoginDeps,
  ) {
    this.repo = new StaffRepository(db);
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
    const { credentials } = this.deps;
    const perIp = await this.deps.limiter.hit(
      `staff-login:ip:${extras.ip}`,
      this.deps.config.staffLoginIpLimit,
      STAFF_LOGIN_RULES.windowMs,
    );
    if (!perIp.allowed) throw fail('rate_limited', 'too many staff logins from this address');
    await credentials.reserveTry(phone);
    const now = this.deps.clock();
    const row = await this.repo.findByPhone(phone);
    const ok = await credentials.passwords.verify(row?.password_hash ?? (await DUMMY_HASH), password);
    if (!row || !ok || row.disabled === 1) throw fail('invalid_credentials');
    // Said only to whoever knows the password: a stranger learns nothing of which accounts exist.
    const policy = await this.deps.ssoPolicy();
    if (policy.required && !(row.role === 'admin' && policy.breakGlass.includes(row.id))) {
      await this.repo.releaseLoginTry(phone);
      throw fail('sso_required');
    }
    let detail = '';
    if (row.totp_secret !== null) {
      if (extras.totpCode === undefined && extras.recoveryCode === undefined) {
        await this.repo.releaseLoginTry(phone);
        throw fail('totp_required');
      }
      if (extras.totpCode !== undefined) {
        const secret = credentials.secrets().open(row.totp_secret, row.id);
        if (!(await credentials.acceptTotp(row.id, secret, extras.totpCode))) throw fail('totp_invalid');
      } else if (!(await this.repo.useRecoveryCode(row.id, recoveryHash(extras.recoveryCode!), now))) {
        throw fail('totp_invalid');
      } else {
        detail = 'recovery code used';
      }
    }
    await this.repo.clearLoginTries(phone);
    const { token, expiresAt } = await this.deps.tokens.issue('staff', row.id, STAFF_TOKEN_HOURS * 3_600_000, {
      method: 'local',
      ip: extras.ip,
      userAgent: extras.userAgent,
    });
    await this.deps.audit.record(
      toActor(row, this.deps.config),
      'staff.login',
      { kind: 'staff', id: row.id },
      null,
      // How the session was signed in to, as single sign-on's are.
      { method: 'local' },
      detail,
    );
    return { token, expiresAt, staff: await staffView(this.db, row.id, this.deps.config) };
  }

  /** Revokes the actor's token. */
  async logout(actor: StaffActor, token: string): Promise<void> {
    authorize(actor, api.staffLogout);
    await this.deps.tokens.revoke(token);
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
}
