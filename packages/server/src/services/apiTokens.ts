import { randomBytes } from 'node:crypto';
import type {
  api,
  ApiTokenCreateData,
  ApiTokenListData,
  ApiTokenScope,
  ApiTokenView,
  ParsedBody,
  ParsedQuery,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { fail } from '../errors.js';
import { ApiTokenRepository, type ApiTokenListed } from '../repositories/integrations.js';
import { TeamRepository } from '../repositories/teams.js';
import type { StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import { hashToken } from './tokens.js';

/** What an API token's bearer may do. */
export interface ApiCaller {
  /** Token id. */
  id: number;
  scope: ApiTokenScope;
  /** Only this team's exams; null: every exam. */
  teamId: number | null;
}

/** Marks tokens as ours, so a leaked one is recognised by secret scanners and people alike. */
const TOKEN_PREFIX = 'exh_';
/**
 * Requests one token may make a minute, across every process: an applicant-tracking system pages through results
 * far below this; a runaway or leaked token is held to it instead of loading the server.
 */
export const API_TOKEN_REQUESTS_PER_MINUTE = 600;
/** Characters of a token the console shows to tell tokens apart. */
const SHOWN = TOKEN_PREFIX.length + 6;

function view(t: ApiTokenListed): ApiTokenView {
  return {
    id: t.id,
    name: t.name,
    scope: 'read-results',
    team_id: t.team_id,
    team_name: t.team_name ?? '',
    prefix: t.prefix,
    created_by_name: t.created_by_name ?? '',
    created_at: t.created_at,
    last_used_at: t.last_used_at,
    revoked_at: t.revoked_at,
  };
}

/** A token as the audit log keeps it: never the token nor its hash. */
function snapshot(t: { name: string; scope: string; team_id: number | null; revoked_at: number | null }) {
  return { name: t.name, scope: t.scope, team_id: t.team_id, revoked: t.revoked_at !== null };
}

/**
 * API tokens an admin makes for another system: 32 random bytes, answered once and stored only as a SHA-256
 * hash, named, scoped (read-results) and optionally limited to one team; revocable; their last use noted.
 */
export class ApiTokenService {
  private readonly repo: ApiTokenRepository;

  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly clock: () => number,
    private readonly limiter: RateLimiter,
  ) {
    this.repo = new ApiTokenRepository(db);
  }

  /** A page of tokens. */
  async list(q: ParsedQuery<typeof api.apiTokenList>): Promise<ApiTokenListData> {
    const { rows, total } = await this.repo.page(q.show === 'all', (q.page - 1) * q.page_size, q.page_size);
    return { list: rows.map(view), total };
  }

  /** Makes a token (audited without it); the token is in the answer and nowhere else. */
  async create(actor: StaffActor, body: ParsedBody<typeof api.apiTokenCreate>): Promise<ApiTokenCreateData> {
    if (body.team_id !== null && !(await new TeamRepository(this.db).find(body.team_id))) {
      throw fail('not_found', `no such team ${body.team_id}`);
    }
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const now = this.clock();
    const id = await this.db.transaction().execute(async (trx) => {
      const id = await new ApiTokenRepository(trx).insert({
        name: body.name,
        scope: body.scope,
        team_id: body.team_id,
        token_hash: hashToken(token),
        prefix: token.slice(0, SHOWN),
        created_by: actor.id,
        created_at: now,
      });
      await this.audit
        .with(trx)
        .record(actor, 'api_token.create', { kind: 'api_token', id }, null, snapshot({ ...body, revoked_at: null }));
      return id;
    });
    return { token, api_token: view((await this.repo.byId(id))!) };
  }

  /** Revokes a token (audited); revoking one already revoked changes nothing. */
  async revoke(actor: StaffActor, id: number): Promise<ApiTokenView> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new ApiTokenRepository(trx);
      const before = await repo.byId(id);
      if (!before) throw fail('not_found', `no such API token ${id}`);
      if (before.revoked_at !== null) return;
      const now = this.clock();
      await repo.revoke(id, now);
      await this.audit
        .with(trx)
        .record(
          actor,
          'api_token.revoke',
          { kind: 'api_token', id },
          snapshot(before),
          snapshot({ ...before, revoked_at: now }),
        );
    });
    return view((await this.repo.byId(id))!);
  }

  /**
   * The caller a live token stands for, its use noted; null for anything else. A token past its requests of the
   * minute is refused (rate_limited) with the seconds until the next minute.
   */
  async resolve(token: string): Promise<ApiCaller | null> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
    const row = await this.repo.live(hashToken(token));
    if (!row) return null;
    const hit = await this.limiter.hit(`api-token:${row.id}`, API_TOKEN_REQUESTS_PER_MINUTE, 60_000);
    if (!hit.allowed) {
      const wait = Math.max(1, Math.ceil((hit.resetAt - this.clock()) / 1000));
      throw fail(
        'rate_limited',
        `this API token made more than ${API_TOKEN_REQUESTS_PER_MINUTE} requests in a minute; try again in ${wait} s`,
        { retry_after_s: wait },
      );
    }
    await this.repo.touch(row.id, this.clock());
    return { id: row.id, scope: 'read-results', teamId: row.team_id };
  }
}
