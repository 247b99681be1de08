/**
 * Staff sessions: a staff member sees where their account is signed in and ends any of those sessions; an admin
 * does the same for the accounts in reach (team walls, as for every staff account call). Ending one is audited and
 * its token stops working at once (it is revoked in the database every request reads).
 */
import { api, SIGN_IN_METHODS, type SignInMethod, type StaffSession } from '@examhall/contract';
import { fail } from '../errors.js';
import { authorize, type AccessService, type StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { SessionRecord, TokenService } from './tokens.js';

/** What staff sessions need. */
export interface StaffSessionDeps {
  tokens: Pick<TokenService, 'sessions' | 'endSession'>;
  access: AccessService;
  audit: AuditService;
}

function isMethod(value: string | null): value is SignInMethod {
  return (SIGN_IN_METHODS as readonly (string | null)[]).includes(value);
}

/** A session as the API shows it; one without an id (a token from before sessions were kept) is not listed. */
function toView(record: SessionRecord, current: string | undefined): StaffSession | null {
  if (record.sessionId === null) return null;
  return {
    session: record.sessionId,
    method: isMethod(record.method) ? record.method : null,
    ip: record.ip,
    user_agent: record.userAgent,
    created_at: record.createdAt,
    last_seen_at: record.lastSeenAt,
    expires_at: record.expiresAt,
    current: record.sessionId === current,
  };
}

/** Listing and ending staff sessions, one's own and (for an admin) another's. */
export class StaffSessionService {
  constructor(private readonly deps: StaffSessionDeps) {}

  /** The caller's own live sessions, newest first, the one the call came through marked. */
  async mine(actor: StaffActor): Promise<StaffSession[]> {
    authorize(actor, api.staffSessions);
    return this.list(actor.id, actor.sessionId);
  }

  /** Ends one of the caller's own sessions (the current one too: that is signing out). */
  async endMine(actor: StaffActor, sessionId: string): Promise<void> {
    authorize(actor, api.staffSessionEnd);
    await this.end(actor, actor.id, sessionId);
  }

  /** Another account's live sessions. */
  async of(actor: StaffActor, staffId: number): Promise<StaffSession[]> {
    await this.deps.access.requireFor(actor, api.staffSessionsOf, staffId);
    return this.list(staffId, actor.id === staffId ? actor.sessionId : undefined);
  }

  /** Ends another account's session. */
  async endOf(actor: StaffActor, staffId: number, sessionId: string): Promise<void> {
    await this.deps.access.requireFor(actor, api.staffSessionEndOf, staffId);
    await this.end(actor, staffId, sessionId);
  }

  private async list(staffId: number, current: string | undefined): Promise<StaffSession[]> {
    const records = await this.deps.tokens.sessions('staff', staffId);
    return records.map((r) => toView(r, current)).filter((v): v is StaffSession => v !== null);
  }

  /**
   * A session that is not the account's, or no longer live, answers 404: nothing to end. The log keeps which
   * session it was (how and where it was signed in to), as the state before; after, there is none.
   */
  private async end(actor: StaffActor, staffId: number, sessionId: string): Promise<void> {
    const session = (await this.deps.tokens.sessions('staff', staffId)).find((r) => r.sessionId === sessionId);
    if (!session || !(await this.deps.tokens.endSession('staff', staffId, sessionId))) {
      throw fail('not_found', 'no such live session of this account');
    }
    const before = {
      session: sessionId,
      method: session.method,
      ip: session.ip,
      user_agent: session.userAgent,
      created_at: session.createdAt,
    };
    await this.deps.audit.record(actor, 'staff.session_end', { kind: 'staff', id: staffId }, before, null);
  }
}
