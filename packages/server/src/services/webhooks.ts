import {
  ExamMode,
  ExamPhase,
  type api,
  type DeliveryListData,
  type DeliveryView,
  type ParsedBody,
  type ParsedQuery,
  type WebhookEndpointView,
  type WebhookListData,
  type WebhookTestData,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { AttemptRepository } from '../repositories/attempts.js';
import {
  WebhookRepository,
  type DeliveryListed,
  type DeliveryToSend,
  type EndpointListed,
} from '../repositories/integrations.js';
import { TeamRepository } from '../repositories/teams.js';
import type { StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { ServiceLog } from '../log.js';
import type { ResultFeedService } from './resultFeed.js';
import { postSigned, refusedWebhookAddress, type PostOutcome } from './webhookPost.js';

/** Where an attempt's score is noted when it may have become final or changed (inside the transaction that did it). */
export interface ScoreOutbox {
  /** Writes an `attempt.scored` event when the attempt's score is final and differs from the last one sent. */
  noteScore(trx: Db, attemptId: number): Promise<void>;
}

/** How long a deliverer holds the deliveries it took; past it, one it never settled is tried again. */
export const DELIVERY_LEASE_MS = 60_000;
/** Deliveries one run takes. */
const DELIVERY_BATCH = 100;
/** Deliveries posted at once. */
const DELIVERY_PARALLEL = 20;
/** How long a try waits for an answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Tries before a delivery is given up on (about three days with the backoff below). */
export const DELIVERY_MAX_TRIES = 80;
/** Rows one statement of the log's pruning removes. */
const PRUNE_BATCH = 1000;

/** The wait after the n-th failed try (1-based): 30 s doubling each time, at most an hour. */
export function retryDelayMs(failedTries: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, failedTries - 1), 3_600_000);
}

/** What the webhook service needs. */
export interface WebhookDeps {
  audit: AuditService;
  results: ResultFeedService;
  clock: () => number;
  log: ServiceLog;
  /** True to let endpoints be loopback or private addresses. */
  allowPrivate: boolean;
  /** Give up on an answer after this long. */
  timeoutMs?: number;
  /** How long a run holds what it took. */
  leaseMs?: number;
  /** Days the delivery log keeps a delivery once it is delivered or given up on. */
  logDays: number;
  /** Rows one statement of the pruning removes. */
  pruneBatch?: number;
}

function endpointView(e: EndpointListed): WebhookEndpointView {
  return {
    id: e.id,
    url: e.url,
    team_id: e.team_id,
    team_name: e.team_name ?? '',
    description: e.description,
    enabled: e.enabled === 1,
    pending: e.pending,
    failed: e.failed,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

/** An endpoint as the audit log keeps it: never the secret. */
function endpointSnapshot(e: { url: string; team_id: number | null; description: string; enabled: number }) {
  return { url: e.url, team_id: e.team_id, description: e.description, enabled: e.enabled === 1 };
}

function deliveryView(d: DeliveryListed): DeliveryView {
  return {
    id: d.id,
    endpoint_id: d.endpoint_id,
    endpoint_url: d.endpoint_url,
    event_id: d.event_id,
    event: d.event === 'ping' ? 'ping' : 'attempt.scored',
    attempt_id: d.attempt_id,
    exam_id: d.exam_id,
    score: d.score,
    status: d.status === 'delivered' ? 'delivered' : d.status === 'failed' ? 'failed' : 'pending',
    attempts: d.attempts,
    last_status: d.last_status,
    last_error: d.last_error,
    next_at: d.status === 'pending' ? d.next_at : null,
    delivered_at: d.delivered_at,
    created_at: d.created_at,
  };
}

/**
 * Webhooks: admins' endpoints (every exam, or one team's), the outbox written in the transaction that makes a
 * score final or changes it, and the deliverer (a periodic task, once per cluster) that posts each event to
 * each endpoint, signed, until a 2xx acknowledges it, with backoff; a delivery whose deliverer died is taken
 * again when its lease runs out, under the same event id.
 */
export class WebhookService implements ScoreOutbox {
  private readonly repo: WebhookRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: WebhookDeps,
  ) {
    this.repo = new WebhookRepository(db);
  }

  /** Every endpoint (admins only, by the call's permission). */
  async list(): Promise<WebhookListData> {
    return { list: (await this.repo.endpoints()).map(endpointView) };
  }

  private async requireTeam(teamId: number | null): Promise<void> {
    if (teamId !== null && !(await new TeamRepository(this.db).find(teamId))) {
      throw fail('not_found', `no such team ${teamId}`);
    }
  }

  /** Adds an endpoint or changes one (audited without its secret). */
  async save(actor: StaffActor, body: ParsedBody<typeof api.webhookSave>): Promise<WebhookEndpointView> {
    const refused = this.deps.allowPrivate ? undefined : refusedWebhookAddress(body.url);
    if (refused) throw fail('webhook_address_refused', refused);
    await this.requireTeam(body.team_id);
    const now = this.deps.clock();
    const fields = {
      url: body.url,
      team_id: body.team_id,
      description: body.description,
      enabled: body.enabled ? 1 : 0,
      updated_at: now,
    };
    const id = await this.db.transaction().execute(async (trx) => {
      const repo = new WebhookRepository(trx);
      const audit = this.deps.audit.with(trx);
      if (body.id === undefined) {
        if (body.secret === undefined) throw fail('validation_error', 'secret: give a new endpoint its secret');
        const id = await repo.insertEndpoint({ ...fields, secret: body.secret, created_by: actor.id, created_at: now });
        await audit.record(actor, 'webhook.create', { kind: 'webhook', id }, null, endpointSnapshot(fields));
        return id;
      }
      const before = await repo.endpoint(body.id);
      if (!before) throw fail('not_found', `no such webhook endpoint ${body.id}`);
      await repo.updateEndpoint(body.id, { ...fields, ...(body.secret !== undefined ? { secret: body.secret } : {}) });
      await audit.record(actor, 'webhook.update', { kind: 'webhook', id: body.id }, endpointSnapshot(before), {
        ...endpointSnapshot(fields),
        secret_changed: body.secret !== undefined && body.secret !== before.secret,
      });
      return body.id;
    });
    return endpointView((await this.repo.endpointListed(id))!);
  }

  /** Removes an endpoint and its deliveries (audited). */
  async remove(actor: StaffActor, id: number): Promise<{ id: number }> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new WebhookRepository(trx);
      const before = await repo.endpoint(id);
      if (!before) throw fail('not_found', `no such webhook endpoint ${id}`);
      await repo.deleteEndpoint(id);
      await this.deps.audit
        .with(trx)
        .record(actor, 'webhook.delete', { kind: 'webhook', id }, endpointSnapshot(before), null);
    });
    return { id };
  }

  /** The delivery log, filtered and paged. */
  async deliveries(q: ParsedQuery<typeof api.webhookDeliveries>): Promise<DeliveryListData> {
    const { rows, total } = await this.repo.deliveryPage(
      { endpointId: q.endpoint_id, status: q.status, attemptId: q.attempt_id },
      q.order,
      (q.page - 1) * q.page_size,
      q.page_size,
    );
    return { list: rows.map(deliveryView), total, kept_days: this.deps.logDays };
  }

  /** Makes a delivery due at once, its tries counted afresh (audited). */
  async redeliver(actor: StaffActor, id: number): Promise<DeliveryView> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new WebhookRepository(trx);
      const before = await repo.delivery(id);
      if (!before) throw fail('not_found', `no such delivery ${id}`);
      if (before.event === 'ping') throw fail('conflict', 'a test delivery is not sent again: test the endpoint anew');
      await repo.redeliver(id, this.deps.clock());
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'webhook.redeliver',
          { kind: 'webhook', id: before.endpoint_id },
          { delivery_id: id, status: before.status, attempts: before.attempts },
          { delivery_id: id, status: 'pending', attempts: 0 },
        );
    });
    return deliveryView((await this.repo.delivery(id))!);
  }

  /**
   * Posts a `ping` to an endpoint now and answers how it replied. The ping is an event of its own with one
   * delivery, held by this call while it posts; it is not tried again (audited).
   */
  async test(actor: StaffActor, endpointId: number): Promise<WebhookTestData> {
    const now = this.deps.clock();
    const deliveryId = await this.db.transaction().execute(async (trx) => {
      const repo = new WebhookRepository(trx);
      const endpoint = await repo.endpoint(endpointId);
      if (!endpoint) throw fail('not_found', `no such webhook endpoint ${endpointId}`);
      const eventId = await repo.insertEvent({ event: 'ping', created_at: now }, [endpointId], now);
      const id = await repo.holdEvent(eventId, now + this.leaseMs());
      await this.deps.audit
        .with(trx)
        .record(actor, 'webhook.test', { kind: 'webhook', id: endpointId }, null, { event: 'ping', event_id: eventId });
      return id!;
    });
    const outcome = await this.attempt(deliveryId);
    return { delivery_id: deliveryId, ok: outcome.ok, status: outcome.status, error: outcome.error };
  }

  private leaseMs(): number {
    return this.deps.leaseMs ?? DELIVERY_LEASE_MS;
  }

  /**
   * The outbox: called inside the transaction that finished, marked or re-scored an attempt. A finished attempt
   * (not practice, not a preview) with no answer waiting for a grader gets an `attempt.scored` event, with one
   * delivery per endpoint that hears its exam, unless its last event already carries this score.
   */
  async noteScore(trx: Db, attemptId: number): Promise<void> {
    const attempt = await new AttemptRepository(trx).byId(attemptId);
    if (
      !attempt ||
      attempt.phase !== ExamPhase.submit ||
      attempt.preview === 1 ||
      attempt.mode === ExamMode.simulate ||
      attempt.score === null
    ) {
      return;
    }
    const repo = new WebhookRepository(trx);
    if ((await repo.waitingAnswers(attemptId)) > 0) return;
    const last = await repo.lastScored(attemptId);
    if (last && last.score === attempt.score && last.max_score === attempt.max_score) return;
    const now = this.deps.clock();
    await repo.insertEvent(
      {
        event: 'attempt.scored',
        attempt_id: attemptId,
        exam_id: attempt.exam_id,
        score: attempt.score,
        max_score: attempt.max_score,
        created_at: now,
      },
      await repo.endpointsFor(attempt.exam_id),
      now,
    );
  }

  /**
   * Keeps the delivery log to its days: removes the deliveries settled (delivered or given up on) longer ago, then
   * the events none of them needs any more, an attempt's latest excepted; in batches, so that no statement holds
   * the database for long. Pending deliveries and their events stay, whatever their age.
   */
  async prune(): Promise<{ deliveries: number; events: number }> {
    const before = this.deps.clock() - this.deps.logDays * 86_400_000;
    const batch = this.deps.pruneBatch ?? PRUNE_BATCH;
    const removed = { deliveries: 0, events: 0 };
    let n: number;
    do {
      n = await this.repo.pruneDeliveries(before, batch);
      removed.deliveries += n;
    } while (n === batch);
    do {
      n = await this.repo.pruneEvents(before, batch);
      removed.events += n;
    } while (n === batch);
    if (removed.deliveries + removed.events > 0) {
      this.deps.log.info(
        { deliveries: removed.deliveries, events: removed.events, days: this.deps.logDays },
        'webhook log pruned',
      );
    }
    return removed;
  }

  /**
   * One run of the deliverer: takes the deliveries due (at most a batch, under a lease) and posts them, a few
   * at a time; answers how many were acknowledged.
   */
  async deliver(): Promise<number> {
    const now = this.deps.clock();
    const ids = await this.repo.claimDue(now, DELIVERY_BATCH, now + this.leaseMs());
    let acknowledged = 0;
    for (let i = 0; i < ids.length; i += DELIVERY_PARALLEL) {
      const outcomes = await Promise.all(ids.slice(i, i + DELIVERY_PARALLEL).map((id) => this.attempt(id)));
      acknowledged += outcomes.filter((o) => o.ok).length;
    }
    return acknowledged;
  }

  /** The JSON an event posts, made on its first try and kept for every later one. */
  private async bodyOf(d: DeliveryToSend): Promise<string> {
    if (d.body !== null) return d.body;
    let body: string;
    if (d.event === 'ping') {
      body = JSON.stringify({ id: d.event_id, event: 'ping', sent_at: d.event_created_at });
    } else {
      const result = await this.deps.results.resultOf(d.attempt_id!, {
        score: d.score ?? 0,
        max_score: d.max_score ?? 0,
        scored_at: d.event_created_at,
      });
      body = JSON.stringify({ id: d.event_id, event: 'attempt.scored', ...result });
    }
    return this.repo.freezeBody(d.event_id, body);
  }

  /** One try of one delivery this process holds, and its outcome recorded. */
  private async attempt(id: number): Promise<PostOutcome> {
    const d = await this.repo.toSend(id);
    if (!d) return { status: null, ok: false, error: 'gone' };
    let outcome: PostOutcome;
    try {
      const body = await this.bodyOf(d);
      outcome = await postSigned(
        d.url,
        d.secret,
        body,
        { event: d.event_id, delivery: d.id },
        Math.floor(this.deps.clock() / 1000),
        { timeoutMs: this.deps.timeoutMs ?? DELIVERY_TIMEOUT_MS, allowPrivate: this.deps.allowPrivate },
      );
    } catch (err) {
      outcome = { status: null, ok: false, error: (err as Error).message || String(err) };
    }
    const now = this.deps.clock();
    if (outcome.ok) {
      await this.repo.markDelivered(id, outcome.status!, now);
    } else {
      const tries = d.attempts + 1;
      const giveUp = d.event === 'ping' || tries >= DELIVERY_MAX_TRIES;
      await this.repo.markFailedTry(id, outcome.status, outcome.error, giveUp ? null : now + retryDelayMs(tries), now);
      this.deps.log.warn(
        { delivery: id, event: d.event_id, tries, status: outcome.status, final: giveUp },
        'webhook delivery failed',
      );
    }
    return outcome;
  }
}
