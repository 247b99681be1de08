import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ApiTokenTable, WebhookDeliveryTable, WebhookEndpointTable, WebhookEventTable } from '../db/schema.js';

/** A webhook endpoint row. */
export type EndpointRow = Selectable<WebhookEndpointTable>;
/** An endpoint with its team's name and its deliveries waiting and given up on. */
export type EndpointListed = EndpointRow & { team_name: string | null; pending: number; failed: number };
/** An event row. */
export type EventRow = Selectable<WebhookEventTable>;
/** A delivery row. */
export type DeliveryRow = Selectable<WebhookDeliveryTable>;
/** A delivery with what the log shows of its event and endpoint. */
export type DeliveryListed = DeliveryRow & {
  endpoint_url: string;
  event: string;
  attempt_id: number | null;
  exam_id: number | null;
  score: number | null;
};
/** What one try needs: the delivery, its event and where and how to sign. */
export type DeliveryToSend = DeliveryRow & {
  url: string;
  secret: string;
  event: string;
  attempt_id: number | null;
  exam_id: number | null;
  score: number | null;
  max_score: number | null;
  body: string | null;
  event_created_at: number;
};
/** An API token row. */
export type ApiTokenRow = Selectable<ApiTokenTable>;
/** A token with its team's and maker's names. */
export type ApiTokenListed = ApiTokenRow & { team_name: string | null; created_by_name: string | null };

/** Filters of the delivery log. */
export interface DeliveryFilter {
  endpointId?: number | undefined;
  status?: string | undefined;
  attemptId?: number | undefined;
}

/** Webhook endpoints, the event outbox and its deliveries. */
export class WebhookRepository {
  constructor(private readonly db: Db) {}

  private listed() {
    return this.db
      .selectFrom('webhook_endpoints as e')
      .leftJoin('teams', 'teams.id', 'e.team_id')
      .selectAll('e')
      .select('teams.name as team_name')
      .select((eb) => [
        eb
          .selectFrom('webhook_deliveries as d')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('d.endpoint_id', '=', 'e.id')
          .where('d.status', '=', 'pending')
          .as('pending'),
        eb
          .selectFrom('webhook_deliveries as d')
          .select((s) => s.fn.countAll<number>().as('n'))
          .whereRef('d.endpoint_id', '=', 'e.id')
          .where('d.status', '=', 'failed')
          .as('failed'),
      ]);
  }

  private static counted(r: EndpointRow & { team_name: string | null; pending: unknown; failed: unknown }) {
    return { ...r, pending: Number(r.pending ?? 0), failed: Number(r.failed ?? 0) };
  }

  /** Every endpoint, oldest first. */
  async endpoints(): Promise<EndpointListed[]> {
    return (await this.listed().orderBy('e.id').execute()).map(WebhookRepository.counted);
  }

  /** One endpoint with its counts. */
  async endpointListed(id: number): Promise<EndpointListed | undefined> {
    const row = await this.listed().where('e.id', '=', id).executeTakeFirst();
    return row ? WebhookRepository.counted(row) : undefined;
  }

  /** One endpoint. */
  endpoint(id: number): Promise<EndpointRow | undefined> {
    return this.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Adds an endpoint; answers its id. */
  async insertEndpoint(row: Insertable<WebhookEndpointTable>): Promise<number> {
    const r = await this.db.insertInto('webhook_endpoints').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Changes an endpoint. */
  async updateEndpoint(id: number, set: Updateable<WebhookEndpointTable>): Promise<void> {
    await this.db.updateTable('webhook_endpoints').set(set).where('id', '=', id).execute();
  }

  /** Removes an endpoint and its deliveries. */
  async deleteEndpoint(id: number): Promise<void> {
    await this.db.deleteFrom('webhook_deliveries').where('endpoint_id', '=', id).execute();
    await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
  }

  /** Enabled endpoints that hear an exam's events: every exam's and those of the exam's team. */
  async endpointsFor(examId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('webhook_endpoints as e')
      .select('e.id')
      .where('e.enabled', '=', 1)
      .where((eb) =>
        eb.or([
          eb('e.team_id', 'is', null),
          eb('e.team_id', '=', eb.selectFrom('exams').select('exams.team_id').where('exams.id', '=', examId)),
        ]),
      )
      .orderBy('e.id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Answers of a finished attempt still waiting for a grader's final mark. */
  async waitingAnswers(attemptId: number): Promise<number> {
    const row = await this.db
      .selectFrom('question_scores')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('attempt_id', '=', attemptId)
      .where('points', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The attempt's latest `attempt.scored` event. */
  lastScored(attemptId: number): Promise<EventRow | undefined> {
    return this.db
      .selectFrom('webhook_events')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('event', '=', 'attempt.scored')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /**
   * Writes an event and one pending delivery per endpoint, due at `now`; answers the event id. An attempt's event
   * becomes its latest, the one before no longer is (the log's pruning may remove it once past its days).
   */
  async insertEvent(
    row: Omit<Insertable<WebhookEventTable>, 'latest'>,
    endpointIds: readonly number[],
    now: number,
  ): Promise<number> {
    if (row.attempt_id != null) {
      await this.db
        .updateTable('webhook_events')
        .set({ latest: 0 })
        .where('attempt_id', '=', row.attempt_id)
        .where('latest', '=', 1)
        .execute();
    }
    const { id } = await this.db
      .insertInto('webhook_events')
      .values({ ...row, latest: row.attempt_id != null ? 1 : 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (endpointIds.length > 0) {
      await this.db
        .insertInto('webhook_deliveries')
        .values(
          endpointIds.map((endpoint_id) => ({
            event_id: id,
            endpoint_id,
            status: 'pending',
            next_at: now,
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
    return id;
  }

  /**
   * Takes up to `limit` deliveries due now (pending, next try due, not held by a live lease), holding them until
   * `leaseUntil`; a delivery whose deliverer died is taken again once its lease has run out.
   */
  async claimDue(now: number, limit: number, leaseUntil: number): Promise<number[]> {
    const due = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    if (due.length === 0) return [];
    const taken = await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: leaseUntil })
      .where(
        'id',
        'in',
        due.map((d) => d.id),
      )
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .returning('id')
      .execute();
    return taken.map((r) => r.id).sort((a, b) => a - b);
  }

  /** Holds the (one) delivery of an event until `leaseUntil`, so no deliverer takes it; answers its id. */
  async holdEvent(eventId: number, leaseUntil: number): Promise<number> {
    const row = await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_until: leaseUntil })
      .where('event_id', '=', eventId)
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** A delivery with its event and endpoint, for a try. */
  toSend(id: number): Promise<DeliveryToSend | undefined> {
    return this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .selectAll('d')
      .select([
        'e.url',
        'e.secret',
        'ev.event',
        'ev.attempt_id',
        'ev.exam_id',
        'ev.score',
        'ev.max_score',
        'ev.body',
        'ev.created_at as event_created_at',
      ])
      .where('d.id', '=', id)
      .executeTakeFirst();
  }

  /** Freezes an event's body (the first try's); answers the body kept, which a concurrent try may have set. */
  async freezeBody(eventId: number, body: string): Promise<string> {
    await this.db
      .updateTable('webhook_events')
      .set({ body })
      .where('id', '=', eventId)
      .where('body', 'is', null)
      .execute();
    const row = await this.db
      .selectFrom('webhook_events')
      .select('body')
      .where('id', '=', eventId)
      .executeTakeFirstOrThrow();
    return row.body ?? body;
  }

  /** Records a 2xx: delivered, never tried again. */
  async markDelivered(id: number, status: number, now: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: 'delivered',
        attempts: eb('attempts', '+', 1),
        last_status: status,
        last_error: '',
        delivered_at: now,
        next_at: null,
        lease_until: null,
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** Records a failed try: due again at `nextAt`, or given up on when that is null. */
  async markFailedTry(id: number, status: number | null, error: string, nextAt: number | null, now: number) {
    await this.db
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        status: nextAt === null ? 'failed' : 'pending',
        attempts: eb('attempts', '+', 1),
        last_status: status,
        last_error: error.slice(0, 500),
        next_at: nextAt,
        lease_until: null,
        updated_at: now,
      }))
      .where('id', '=', id)
      .execute();
  }

  /** Makes a delivery due at once with its tries counted afresh. */
  async redeliver(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        attempts: 0,
        next_at: now,
        lease_until: null,
        delivered_at: null,
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
  }

  private deliveries(f: DeliveryFilter) {
    let q = this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id');
    if (f.endpointId !== undefined) q = q.where('d.endpoint_id', '=', f.endpointId);
    if (f.status !== undefined) q = q.where('d.status', '=', f.status);
    if (f.attemptId !== undefined) q = q.where('ev.attempt_id', '=', f.attemptId);
    return q;
  }

  private static readonly LISTED = [
    'e.url as endpoint_url',
    'ev.event',
    'ev.attempt_id',
    'ev.exam_id',
    'ev.score',
  ] as const;

  /** One page of the delivery log, by id in `order`, with the total matching. */
  async deliveryPage(
    f: DeliveryFilter,
    order: 'asc' | 'desc',
    offset: number,
    limit: number,
  ): Promise<{ rows: DeliveryListed[]; total: number }> {
    const rows = await this.deliveries(f)
      .selectAll('d')
      .select(WebhookRepository.LISTED)
      .orderBy('d.id', order)
      .offset(offset)
      .limit(limit)
      .execute();
    const count = await this.deliveries(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, total: Number(count.n) };
  }

  /** One delivery as the log shows it. */
  delivery(id: number): Promise<DeliveryListed | undefined> {
    return this.deliveries({})
      .selectAll('d')
      .select(WebhookRepository.LISTED)
      .where('d.id', '=', id)
      .executeTakeFirst();
  }

  /** Deletes the rows of `table` by id; answers how many. */
  private async removeRows(table: 'webhook_deliveries' | 'webhook_events', rows: { id: number }[]): Promise<number> {
    if (rows.length > 0) {
      await this.db
        .deleteFrom(table)
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
    }
    return rows.length;
  }

  /** Removes up to `limit` settled deliveries (delivered or given up on) last changed before `before`; answers how many. */
  async pruneDeliveries(before: number, limit: number): Promise<number> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', 'in', ['delivered', 'failed'])
      .where('updated_at', '<', before)
      .orderBy('id')
      .limit(limit)
      .execute();
    return this.removeRows('webhook_deliveries', rows);
  }

  /**
   * Removes up to `limit` events made before `before` that no delivery refers to any more, but never an attempt's
   * latest (a new score is compared with it, so that an unchanged score is not sent again); answers how many.
   */
  async pruneEvents(before: number, limit: number): Promise<number> {
    // Through webhook_events_prunable: the events past their days that are no attempt's latest, not every kept one.
    const rows = await this.db
      .selectFrom('webhook_events as e')
      .select('e.id')
      .where('e.latest', '=', 0)
      .where('e.created_at', '<', before)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id'))),
      )
      .orderBy('e.created_at')
      .orderBy('e.id')
      .limit(limit)
      .execute();
    return this.removeRows('webhook_events', rows);
  }
}

/** API tokens. */
export class ApiTokenRepository {
  constructor(private readonly db: Db) {}

  private listed() {
    return this.db
      .selectFrom('api_tokens as t')
      .leftJoin('teams', 'teams.id', 't.team_id')
      .leftJoin('staff', 'staff.id', 't.created_by')
      .selectAll('t')
      .select(['teams.name as team_name', 'staff.name as created_by_name']);
  }

  /** Makes a token; answers its id. */
  async insert(row: Insertable<ApiTokenTable>): Promise<number> {
    const r = await this.db.insertInto('api_tokens').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** One token with its names. */
  byId(id: number): Promise<ApiTokenListed | undefined> {
    return this.listed().where('t.id', '=', id).executeTakeFirst();
  }

  /** One page of tokens, newest first (revoked ones only with `all`), with the total. */
  async page(all: boolean, offset: number, limit: number): Promise<{ rows: ApiTokenListed[]; total: number }> {
    const base = all ? this.listed() : this.listed().where('t.revoked_at', 'is', null);
    const rows = await base.orderBy('t.id', 'desc').offset(offset).limit(limit).execute();
    let count = this.db.selectFrom('api_tokens').select((eb) => eb.fn.countAll<number>().as('n'));
    if (!all) count = count.where('revoked_at', 'is', null);
    return { rows, total: Number((await count.executeTakeFirstOrThrow()).n) };
  }

  /** The live (not revoked) token with this hash. */
  live(tokenHash: string): Promise<ApiTokenRow | undefined> {
    return this.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  }

  /** Notes a use, at most one write a minute per token. */
  async touch(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('api_tokens')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', now - 60_000)]))
      .execute();
  }

  /** Revokes a token (once). */
  async revoke(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('api_tokens')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
  }
}

/** A final result row: the attempt, its exam and its candidate. */
export interface ResultRow {
  attempt_id: number;
  exam_id: number;
  exam_name: string;
  team_id: number | null;
  version_id: number | null;
  candidate_id: number;
  name: string | null;
  area_code: string;
  phone: string;
  email: string;
  score: number | null;
  max_score: number | null;
  finished_at: number | null;
  scored_at: number | null;
}

/** Final results: finished attempts (not practice, not previews) with every point known. */
export class ResultRepository {
  constructor(private readonly db: Db) {}

  private base() {
    return this.db
      .selectFrom('attempts as a')
      .innerJoin('exams as x', 'x.id', 'a.exam_id')
      .innerJoin('candidates as c', 'c.id', 'a.candidate_id')
      .select([
        'a.id as attempt_id',
        'a.exam_id',
        'x.name as exam_name',
        'x.team_id',
        'a.version_id',
        'a.candidate_id',
        'c.name',
        'c.area_code',
        'c.phone',
        'c.email',
        'a.score',
        'a.max_score',
        'a.finished_at',
      ])
      .select((eb) =>
        eb
          .selectFrom('question_scores as s')
          .select((s) => s.fn.max('s.updated_at').as('t'))
          .whereRef('s.attempt_id', '=', 'a.id')
          .as('scored_at'),
      );
  }

  /**
   * Final results after attempt `after`, by attempt id: of one exam, of one team's exams, or all; finished in
   * `phase`, not `practiceMode`, not previews, no answer waiting for a grader.
   */
  async page(f: {
    phase: number;
    practiceMode: number;
    examId?: number | undefined;
    teamId?: number | null | undefined;
    after: number;
    limit: number;
  }): Promise<ResultRow[]> {
    let q = this.base()
      .where('a.phase', '=', f.phase)
      .where('a.preview', '=', 0)
      .where('a.mode', '<>', f.practiceMode)
      .where('a.id', '>', f.after)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('question_scores as w')
              .select('w.attempt_id')
              .whereRef('w.attempt_id', '=', 'a.id')
              .where('w.points', 'is', null),
          ),
        ),
      );
    if (f.examId !== undefined) q = q.where('a.exam_id', '=', f.examId);
    if (f.teamId !== undefined && f.teamId !== null) q = q.where('x.team_id', '=', f.teamId);
    const rows = await q.orderBy('a.id').limit(f.limit).execute();
    return rows.map((r) => ({ ...r, scored_at: r.scored_at === null ? null : Number(r.scored_at) }));
  }

  /** One attempt's result row (whatever its state). */
  async one(attemptId: number): Promise<ResultRow | undefined> {
    const r = await this.base().where('a.id', '=', attemptId).executeTakeFirst();
    return r ? { ...r, scored_at: r.scored_at === null ? null : Number(r.scored_at) } : undefined;
  }

  /** An exam's team (undefined: no such exam). */
  async examTeam(examId: number): Promise<{ team_id: number | null } | undefined> {
    return this.db.selectFrom('exams').select('team_id').where('id', '=', examId).executeTakeFirst();
  }
}
