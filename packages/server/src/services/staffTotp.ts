import { api } from '@examhall/contract';
import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI } from 'otplib';
import QRCode from 'qrcode';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { StaffRepository } from '../repositories/staff.js';
import { authorize, type AccessService, type StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { snapshot } from './staff.js';
import { recoveryHash, type StaffCredentials } from './staffCredentials.js';
import type { TokenService } from './tokens.js';
import { SEALED_PREFIX, TotpSecretBox } from './totpSecrets.js';

/** The issuer authenticator apps show next to the account. */
const TOTP_ISSUER = 'Examhall';
/** How many recovery codes an enrolment hands out. */
const RECOVERY_CODES = 10;

/** A new recovery code: 10 characters of [a-z0-9] without look-alikes, shown as xxxxx-xxxxx. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(10);
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/** What the second factor's calls need. */
export interface StaffTotpDeps {
  access: AccessService;
  audit: AuditService;
  tokens: Pick<TokenService, 'revokeAll'>;
  credentials: StaffCredentials;
  clock: () => number;
}

/**
 * Staff accounts' second factor: enrolment and its confirmation with recovery codes, turning it off (one's own with
 * a code or the password, another's by an admin), and sealing secrets stored before they were encrypted.
 */
export class StaffTotpService {
  private readonly repo: StaffRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: StaffTotpDeps,
  ) {
    this.repo = new StaffRepository(db);
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
    await this.db.transaction().execute(async (trx) => {
      await new StaffRepository(trx).setPendingTotp(row.id, this.deps.credentials.secrets().seal(secret, row.id));
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
    const { credentials } = this.deps;
    const row = await this.repo.findById(actor.id);
    if (!row) throw fail('not_logged_in');
    if (row.totp_secret !== null) throw fail('conflict', 'two-factor authentication is already on');
    const pending = row.totp_pending_secret;
    if (pending === null) throw fail('conflict', 'no enrolment in progress; start one first');
    const secret = credentials.secrets().open(pending, row.id);
    const step = await credentials.guarded(row.phone, () => credentials.totpStep(secret, code));
    if (step === null) throw fail('totp_invalid');
    // Stored anew: an enrolment begun before secrets were encrypted is encrypted as it is turned on.
    const stored = TotpSecretBox.isSealed(pending) ? pending : credentials.secrets().seal(secret, row.id);
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.db.transaction().execute(async (trx) => {
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
    const { credentials } = this.deps;
    const row = await this.repo.findById(actor.id);
    if (!row) throw fail('not_logged_in');
    const stored = row.totp_secret;
    if (stored === null) throw fail('conflict', 'two-factor authentication is not on');
    const proven = await credentials.guarded(row.phone, () =>
      proof.code !== undefined
        ? credentials.acceptTotp(row.id, credentials.secrets().open(stored, row.id), proof.code)
        : credentials.passwords.verify(row.password_hash, proof.password ?? ''),
    );
    if (!proven) throw fail(proof.code !== undefined ? 'totp_invalid' : 'password_incorrect');
    await this.db.transaction().execute(async (trx) => {
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
    await this.db.transaction().execute(async (trx) => {
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
    const box = this.deps.credentials.secrets();
    let sealed = 0;
    for (const row of await this.repo.plainTotpSecrets(SEALED_PREFIX)) {
      const seal = (v: string | null) => (v === null || TotpSecretBox.isSealed(v) ? v : box.seal(v, row.id));
      const from = { totp_secret: row.totp_secret, totp_pending_secret: row.totp_pending_secret };
      const to = { totp_secret: seal(row.totp_secret), totp_pending_secret: seal(row.totp_pending_secret) };
      if (await this.repo.replaceTotpSecrets(row.id, from, to)) sealed += 1;
    }
    return sealed;
  }
}
