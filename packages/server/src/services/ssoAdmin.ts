/**
 * Single sign-on as an admin sets it: the identity provider's groups mapped to teams and roles, and the policy that
 * requires single sign-on of every account but the break-glass admins. Every change is audited.
 */
import {
  api,
  type CreateSsoGroupBody,
  type SsoGroupView,
  type SsoSettingsData,
  type SsoSetupView,
  type StaffRole,
  type UpdateSsoGroupBody,
} from '@examhall/contract';
import type { z } from 'zod';
import type { Config, SsoClaims } from '../config.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';
import { fail } from '../errors.js';
import { SettingsRepository } from '../repositories/settings.js';
import { SsoRepository, type SsoGroupRow, type SsoGroupWithTeam } from '../repositories/sso.js';
import { StaffRepository } from '../repositories/staff.js';
import { TeamRepository } from '../repositories/teams.js';
import { authorize, type StaffActor } from './access.js';
import type { AuditService } from './audit.js';

/** The policy's key in app_settings. */
const POLICY_KEY = 'sso_policy';

/** Whether single sign-on is required, and of whom not. */
export interface SsoPolicy {
  required: boolean;
  /** The admin accounts that may still sign in with their password. */
  breakGlass: number[];
}

/** What the SSO set-up needs. */
export interface SsoAdminDeps {
  config: Pick<Config, 'oidc' | 'saml' | 'ssoCreateAccounts' | 'publicUrl' | 'apiPrefix'>;
  audit: AuditService;
  clock: () => number;
}

function toView(row: SsoGroupWithTeam): SsoGroupView {
  return {
    id: row.id,
    group: row.group_name,
    team_id: row.team_id,
    team_name: row.team_name,
    role: row.role as StaffRole,
    created_at: row.created_at,
  };
}

/** What the audit log keeps of a mapping. */
function snapshot(row: Pick<SsoGroupRow, 'id' | 'group_name' | 'team_id' | 'role'>): Record<string, unknown> {
  return { id: row.id, group: row.group_name, team_id: row.team_id, role: row.role };
}

/** The address under this site's API of a call's path. */
export function apiUrl(config: Pick<Config, 'publicUrl' | 'apiPrefix'>, path: string): string {
  return `${config.publicUrl.replace(/\/+$/, '')}${config.apiPrefix}${path}`;
}

/** This site's SAML entity id: the one set, else its metadata's address. */
export function samlEntityId(config: Pick<Config, 'saml' | 'publicUrl' | 'apiPrefix'>): string {
  return config.saml?.spEntityId ?? apiUrl(config, api.samlMetadata.path);
}

function setupView(claims: SsoClaims, issuer: string, callbackUrl: string, metadataUrl: string | null): SsoSetupView {
  return {
    name: claims.name,
    issuer,
    callback_url: callbackUrl,
    account_claim: claims.accountClaim,
    account_kind: claims.accountKind,
    groups_claim: claims.groupsClaim,
    metadata_url: metadataUrl,
  };
}

/** Group mappings and the single sign-on policy. */
export class SsoAdminService {
  private readonly repo: SsoRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: SsoAdminDeps,
  ) {
    this.repo = new SsoRepository(db);
  }

  /** Every group mapping. */
  async groups(actor: StaffActor): Promise<SsoGroupView[]> {
    authorize(actor, api.ssoGroupList);
    return (await this.repo.listGroups()).map(toView);
  }

  /**
   * A mapping's team and role must fit: a team that exists, and no team only for admins (whose work spans every
   * team); every other role works in a team.
   */
  private async checkTarget(db: Db, teamId: number | null, role: StaffRole): Promise<void> {
    if (teamId === null && role !== 'admin') {
      throw fail('validation_error', 'team_id: a group of authors, proctors or graders is mapped to a team');
    }
    if (teamId !== null && !(await new TeamRepository(db).find(teamId))) {
      throw fail('validation_error', `team_id: no such team ${teamId}`);
    }
  }

  /** Maps a group; a group mapped already answers conflict. */
  async createGroup(actor: StaffActor, input: z.output<typeof CreateSsoGroupBody>): Promise<SsoGroupView> {
    authorize(actor, api.ssoGroupCreate);
    return this.unique(() =>
      this.db.transaction().execute(async (trx) => {
        const repo = new SsoRepository(trx);
        await this.checkTarget(trx, input.team_id, input.role);
        if (await repo.findGroupByName(input.group))
          throw fail('conflict', `the group ${input.group} is mapped already`);
        const row = await repo.createGroup({
          group_name: input.group,
          team_id: input.team_id,
          role: input.role,
          created_at: this.deps.clock(),
        });
        await this.deps.audit
          .with(trx)
          .record(actor, 'sso.group.create', { kind: 'sso_group', id: row.id }, null, snapshot(row));
        return toView((await repo.findGroup(row.id))!);
      }),
    );
  }

  /** Changes a mapping; its members' accounts follow at their next sign-in. */
  async updateGroup(actor: StaffActor, input: z.output<typeof UpdateSsoGroupBody>): Promise<SsoGroupView> {
    authorize(actor, api.ssoGroupUpdate);
    return this.unique(() =>
      this.db.transaction().execute(async (trx) => {
        const repo = new SsoRepository(trx);
        const before = await repo.findGroup(input.id);
        if (!before) throw fail('not_found', `no such group mapping ${input.id}`);
        const after = {
          id: before.id,
          group_name: input.group ?? before.group_name,
          team_id: input.team_id === undefined ? before.team_id : input.team_id,
          role: input.role ?? before.role,
        };
        await this.checkTarget(trx, after.team_id, after.role as StaffRole);
        const taken = await repo.findGroupByName(after.group_name);
        if (taken && taken.id !== before.id) throw fail('conflict', `the group ${after.group_name} is mapped already`);
        await repo.updateGroup(before.id, { group_name: after.group_name, team_id: after.team_id, role: after.role });
        await this.deps.audit
          .with(trx)
          .record(actor, 'sso.group.update', { kind: 'sso_group', id: before.id }, snapshot(before), snapshot(after));
        return toView((await repo.findGroup(before.id))!);
      }),
    );
  }

  /** Removes a mapping: its members are refused at their next single sign-on (unless another group maps them). */
  async deleteGroup(actor: StaffActor, id: number): Promise<void> {
    authorize(actor, api.ssoGroupDelete);
    await this.db.transaction().execute(async (trx) => {
      const repo = new SsoRepository(trx);
      const before = await repo.findGroup(id);
      if (!before) throw fail('not_found', `no such group mapping ${id}`);
      await repo.deleteGroup(id);
      await this.deps.audit
        .with(trx)
        .record(actor, 'sso.group.delete', { kind: 'sso_group', id }, snapshot(before), null);
    });
  }

  private async unique<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw fail('conflict', 'this group is mapped already');
      throw err;
    }
  }

  /** The policy in force (none set: single sign-on is offered, not required). */
  async policy(db: Db = this.db): Promise<SsoPolicy> {
    const value = await new SettingsRepository(db).get(POLICY_KEY);
    if (value === undefined) return { required: false, breakGlass: [] };
    const parsed = JSON.parse(value) as { required?: unknown; break_glass?: unknown };
    return {
      required: parsed.required === true,
      breakGlass: Array.isArray(parsed.break_glass) ? parsed.break_glass.filter((v) => typeof v === 'number') : [],
    };
  }

  /** How single sign-on is set up, and the policy. */
  async settings(actor: StaffActor): Promise<SsoSettingsData> {
    authorize(actor, api.ssoSettings);
    return this.settingsView(await this.policy());
  }

  private settingsView(policy: SsoPolicy): SsoSettingsData {
    const { config } = this.deps;
    return {
      oidc: config.oidc
        ? setupView(config.oidc, config.oidc.issuer, apiUrl(config, api.oidcCallback.path), null)
        : null,
      saml: config.saml
        ? setupView(
            config.saml,
            config.saml.idpIssuer,
            apiUrl(config, api.samlAcs.path),
            apiUrl(config, api.samlMetadata.path),
          )
        : null,
      create_accounts: config.ssoCreateAccounts,
      required: policy.required,
      break_glass: policy.breakGlass,
    };
  }

  /**
   * Sets the policy. Requiring single sign-on needs a provider set up and at least one break-glass admin (an
   * enabled admin account), so that a provider's outage never locks everyone out; break-glass accounts are admins.
   */
  async updateSettings(actor: StaffActor, required: boolean, breakGlass: number[]): Promise<SsoSettingsData> {
    authorize(actor, api.ssoSettingsUpdate);
    const ids = [...new Set(breakGlass)].sort((a, b) => a - b);
    if (required && !this.deps.config.oidc && !this.deps.config.saml) {
      throw fail('validation_error', 'required: no identity provider is set up on this server');
    }
    if (required && ids.length === 0) {
      throw fail('validation_error', 'break_glass: name at least one admin who may still sign in with a password');
    }
    return this.db.transaction().execute(async (trx) => {
      const staff = new StaffRepository(trx);
      for (const id of ids) {
        const row = await staff.findById(id);
        if (!row || row.role !== 'admin' || row.disabled === 1) {
          throw fail('validation_error', `break_glass: ${id} is not an enabled admin account`);
        }
      }
      const before = await this.policy(trx);
      const after: SsoPolicy = { required, breakGlass: ids };
      await new SettingsRepository(trx).set(POLICY_KEY, JSON.stringify({ required, break_glass: ids }));
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'sso.settings',
          { kind: 'sso_settings', id: null },
          { required: before.required, break_glass: before.breakGlass },
          { required: after.required, break_glass: after.breakGlass },
        );
      return this.settingsView(after);
    });
  }
}
