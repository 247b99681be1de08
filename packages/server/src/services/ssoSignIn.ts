/**
 * The rule that decides, from an identity provider's verified claims, which account signs in, and the sign-in
 * itself (a staff session of the method, audited). Whichever protocol verified the claims (OpenID Connect or SAML),
 * the account is decided here:
 *
 * - the provider's groups must match a mapping (`sso_group_mappings`); none: refused (`sso_no_mapped_team`). A
 *   removed mapping refuses its members at their next sign-in: the provider no longer vouches for them here;
 * - the account is the one this subject signed in as before, else the one whose sign-in name is the account claim
 *   (phone or e-mail, as configured), else one made from the claims (unless the operator turned that off:
 *   `sso_unknown_account`);
 * - its role and team follow the mapping at every sign-in (a change ends its other sessions and is audited), so no
 *   account is admin unless a mapping says so; a disabled account is refused.
 */
import { randomBytes } from 'node:crypto';
import { DEFAULT_AREA_CODE, STAFF_ROLES, STAFF_TOKEN_HOURS, type SsoMethod, type StaffRole } from '@examhall/contract';
import type { Config, SsoClaims } from '../config.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';
import { fail } from '../errors.js';
import { SsoRepository, type SsoGroupRow } from '../repositories/sso.js';
import { StaffRepository, type StaffRow } from '../repositories/staff.js';
import type { AuditService } from './audit.js';
import { snapshot, toActor } from './staff.js';
import type { PasswordHasher } from './staffCredentials.js';
import type { SessionOrigin, TokenService } from './tokens.js';

/** What a provider vouched for, once its answer is verified. */
export interface VerifiedIdentity {
  method: SsoMethod;
  /** The provider's issuer (OpenID Connect) or entity id (SAML). */
  issuer: string;
  /** Its subject (`sub`, or the NameID). */
  subject: string;
  /** The claims (or attributes) it sent, by name. */
  claims: Readonly<Record<string, unknown>>;
}

/** Where a browser signs in from. */
export type SignInOrigin = Omit<SessionOrigin, 'method'>;

/** What signing in needs. */
export interface SsoSignInDeps {
  config: Pick<Config, 'ssoCreateAccounts' | 'staffTotpRequiredForAdmins'>;
  tokens: Pick<TokenService, 'issue' | 'revokeAll'>;
  audit: AuditService;
  credentials: { passwords: PasswordHasher };
  clock: () => number;
}

/** The values of a claim as strings: a string, a list of strings, or a string of names separated by commas. */
function claimValues(value: unknown): string[] {
  if (typeof value === 'string')
    return value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  if (Array.isArray(value)) return value.flatMap((v) => claimValues(v));
  return [];
}

/** The first value of a claim, or undefined. */
function claimValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (Array.isArray(value)) return claimValue(value[0]);
  return undefined;
}

/**
 * The sign-in name an account claim gives: a phone's digits (without a +86 or 0086 prefix), or an e-mail in lower
 * case; undefined when the claim does not hold one.
 */
export function accountName(value: string | undefined, kind: 'phone' | 'email'): string | undefined {
  if (value === undefined) return undefined;
  if (kind === 'email') {
    const email = value.trim().toLowerCase();
    return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 200 ? email : undefined;
  }
  const digits = value.replace(/[\s()-]/g, '').replace(/^(\+|00)86(?=\d{11}$)/, '');
  return /^\d{4,15}$/.test(digits) ? digits : undefined;
}

/** Of the mappings a sign-in's groups match, the one that decides: the widest role, then the oldest mapping. */
export function decidingMapping(mappings: readonly SsoGroupRow[]): SsoGroupRow | undefined {
  const rank = (role: string) => STAFF_ROLES.indexOf(role as StaffRole);
  return [...mappings].sort((a, b) => rank(a.role) - rank(b.role) || a.id - b.id)[0];
}

/** Decides the account of a verified identity and signs it in. */
export class SsoSignInService {
  constructor(
    private readonly db: Db,
    private readonly deps: SsoSignInDeps,
  ) {}

  /** The account a verified identity signs in as, made or brought in line with its mapping (see the module's rule). */
  async account(identity: VerifiedIdentity, claims: SsoClaims): Promise<StaffRow> {
    const now = this.deps.clock();
    const groups = claimValues(identity.claims[claims.groupsClaim]);
    const mapping = decidingMapping(await new SsoRepository(this.db).groupsNamed(groups));
    if (!mapping) throw fail('sso_no_mapped_team');
    const target = { role: mapping.role as StaffRole, team_id: mapping.team_id };
    const { row, changed } = await this.settle(identity, claims, target, now);
    // A new role or team ends the account's sessions, as an admin's change does; the new one is issued after.
    if (changed) await this.deps.tokens.revokeAll('staff', row.id);
    return row;
  }

  private async settle(
    identity: VerifiedIdentity,
    claims: SsoClaims,
    target: { role: StaffRole; team_id: number | null },
    now: number,
  ): Promise<{ row: StaffRow; changed: boolean }> {
    const name = accountName(claimValue(identity.claims[claims.accountClaim]), claims.accountKind);
    // Made outside the transaction: hashing takes a while, and SQLite has one writer.
    const unusable = await this.deps.credentials.passwords.hash(randomBytes(32).toString('base64url'));
    try {
      return await this.db.transaction().execute(async (trx) => {
        const staff = new StaffRepository(trx);
        const sso = new SsoRepository(trx);
        const linked = await sso.identityOwner(identity.method, identity.issuer, identity.subject);
        let row = linked === undefined ? undefined : await staff.findById(linked);
        if (!row) {
          if (name === undefined) throw fail('sso_claim_missing', `the provider sent no usable ${claims.accountClaim}`);
          row = await staff.findByPhone(name);
        }
        if (!row) {
          if (!this.deps.config.ssoCreateAccounts) throw fail('sso_unknown_account');
          const displayName = claimValue(identity.claims.name) ?? claimValue(identity.claims.displayName) ?? name!;
          row = await staff.create({
            phone: name!,
            area_code: DEFAULT_AREA_CODE,
            name: displayName.slice(0, 60),
            role: target.role,
            team_id: target.team_id,
            // Nobody knows it: the account signs in through its provider only (an admin may set a password).
            password_hash: unusable,
            disabled: 0,
            created_at: now,
          });
          await this.deps.audit
            .with(trx)
            .record(null, 'staff.create', { kind: 'staff', id: row.id }, null, snapshot(row), identity.method);
        }
        if (row.disabled === 1) throw fail('sso_account_disabled');
        await sso.linkIdentity(identity.method, identity.issuer, identity.subject, row.id, now);
        if (row.role === target.role && row.team_id === target.team_id) return { row, changed: false };
        if (row.role === 'admin' && target.role !== 'admin' && (await staff.otherEnabledAdmins(row.id)) === 0) {
          throw fail('last_admin', 'the mapping would demote the last enabled admin account');
        }
        await staff.update(row.id, target);
        const after = { ...row, ...target };
        await this.deps.audit
          .with(trx)
          .record(
            null,
            'staff.sso_provision',
            { kind: 'staff', id: row.id },
            snapshot(row),
            snapshot(after),
            identity.method,
          );
        return { row: after, changed: true };
      });
    } catch (err) {
      // Two first sign-ins of one person at once: the second finds the account the first made.
      if (isUniqueViolation(err)) return this.settle(identity, claims, target, now);
      throw err;
    }
  }

  /** Signs a verified identity in: its account (see `account`), a session of the method, the sign-in audited. */
  async signIn(
    identity: VerifiedIdentity,
    claims: SsoClaims,
    origin: SignInOrigin,
  ): Promise<{ token: string; expiresAt: number; staffId: number }> {
    const row = await this.account(identity, claims);
    const { token, expiresAt } = await this.deps.tokens.issue('staff', row.id, STAFF_TOKEN_HOURS * 3_600_000, {
      ...origin,
      method: identity.method,
    });
    await this.deps.audit.record(
      toActor(row, this.deps.config),
      'staff.login',
      { kind: 'staff', id: row.id },
      null,
      { method: identity.method },
      identity.method,
    );
    return { token, expiresAt, staffId: row.id };
  }
}
