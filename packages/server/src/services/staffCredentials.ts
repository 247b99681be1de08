/**
 * The checks of a staff member's password and TOTP codes, shared by the login (staffLogin.ts) and the second
 * factor's calls (staffTotp.ts): each check first takes a try of the account's lock, a code is good once, and the
 * secrets are read with one key made on first use.
 */
import { STAFF_LOGIN_RULES } from '@examhall/contract';
import { createHash } from 'node:crypto';
import argon2 from 'argon2';
import { verifySync } from 'otplib';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { ServiceLog } from '../log.js';
import { StaffRepository } from '../repositories/staff.js';
import { TotpSecretBox, totpKey } from './totpSecrets.js';

/** How far (seconds) a code may be off the server's clock: one 30-second step either way, for clock drift and typing. */
const TOTP_TOLERANCE_S = 30;

/**
 * Recovery codes are 50 random bits each, so a plain SHA-256 is enough to keep them from being read back
 * (no dictionary to try), and a login can look one up by its hash.
 */
export function recoveryHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** Password hashing; one object that every staff service shares, so that tests can count the (slow) verifications. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** What the checks need. */
export interface StaffCredentialDeps {
  config: Pick<Config, 'totpKey' | 'dataDir'>;
  clock: () => number;
  /** Where the warning about a key generated without TOTP_KEY goes. */
  log: ServiceLog;
}

/** The checks of staff passwords and TOTP codes, each through the account's lock. */
export class StaffCredentials {
  private readonly repo: StaffRepository;
  /** argon2, as the login and account changes use it. */
  readonly passwords: PasswordHasher = {
    hash: (password) => argon2.hash(password),
    verify: (hash, password) => argon2.verify(hash, password),
  };

  /** Made on first use, so commands that never read a secret never need (or generate) a key. */
  private box: TotpSecretBox | undefined;

  constructor(
    db: Db,
    private readonly deps: StaffCredentialDeps,
  ) {
    this.repo = new StaffRepository(db);
  }

  /** The box that seals and opens the stored TOTP secrets. */
  secrets(): TotpSecretBox {
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
  async reserveTry(phone: string): Promise<void> {
    const now = this.deps.clock();
    if (!(await this.repo.reserveLoginTry(phone, now, STAFF_LOGIN_RULES.maxFailures, STAFF_LOGIN_RULES.windowMs))) {
      throw fail('account_locked');
    }
  }

  /**
   * A check of a signed-in account's password or code as one reserved try (see reserveTry). A right answer
   * gives its try back but clears nothing: only a full login does, or a session could reset its own lock.
   */
  async guarded<T>(phone: string, check: () => T | Promise<T>): Promise<T> {
    await this.reserveTry(phone);
    const result = await check();
    if (result !== null && result !== false) await this.repo.releaseLoginTry(phone);
    return result;
  }

  /** The time step of `code` when it is a current code of `secret`, else null. */
  totpStep(secret: string, code: string): number | null {
    const result = verifySync({
      secret,
      token: code,
      epoch: Math.floor(this.deps.clock() / 1000),
      epochTolerance: TOTP_TOLERANCE_S,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }

  /** Checks a code and uses up its time step, so a code seen once (over a shoulder, in a proxy) is not good again. */
  async acceptTotp(id: number, secret: string, code: string): Promise<boolean> {
    const step = this.totpStep(secret, code);
    return step !== null && (await this.repo.useTotpStep(id, step));
  }
}
