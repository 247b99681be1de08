/**
 * The webhook delivery log keeps to its days: settled deliveries older than that go, with the events no delivery
 * needs, except each attempt's latest (a new score is compared with it); pending deliveries stay whatever their
 * age. On both dialects, in batches smaller than the rows to remove.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookRepository } from '../repositories/integrations.js';
import { openTestDb, testedDialects, type TestDb } from '../test/db.js';
import { finishedAttempts } from '../test/finishedAttempts.js';
import { AuditService } from './audit.js';
import { ExamCatalog } from './catalog.js';
import { ResultFeedService } from './resultFeed.js';
import { WebhookService } from './webhooks.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27, 4, 0, 0);
const OLD = NOW - 40 * DAY;
const RECENT = NOW - DAY;

describe.each(await testedDialects())('the webhook delivery log kept to its days, on %s', (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await openTestDb(dialect);
  });
  afterAll(async () => {
    await t.drop();
  });

  it('removes settled deliveries past the days and the events none needs, and keeps the rest', async () => {
    const repo = new WebhookRepository(t.handle.db);
    const endpoint = await repo.insertEndpoint({
      url: 'https://ats.example.com/hooks',
      secret: 'prune-test-secret-0123',
      team_id: null,
      description: '',
      enabled: 1,
      created_by: null,
      created_at: OLD,
      updated_at: OLD,
    });
    const { examId, attemptIds } = await finishedAttempts(t.handle.db, 5, OLD);
    const [a1, a2, a3, a4, a5] = attemptIds as [number, number, number, number, number];
    /** An event of `attempt` made at `at` (score as the attempt's), its delivery settled as `status` at `settled`. */
    const event = async (attempt: number | null, at: number, status: string, settled: number) => {
      const id = await repo.insertEvent(
        {
          event: attempt === null ? 'ping' : 'attempt.scored',
          attempt_id: attempt,
          exam_id: attempt === null ? null : examId,
          score: attempt === null ? null : attemptIds.indexOf(attempt),
          max_score: attempt === null ? null : 100,
          created_at: at,
        },
        [endpoint],
        at,
      );
      await t.handle.db
        .updateTable('webhook_deliveries')
        .set({ status, updated_at: settled, delivered_at: status === 'delivered' ? settled : null })
        .where('event_id', '=', id)
        .execute();
      return id;
    };
    const e1 = await event(a1, OLD, 'delivered', OLD); // delivery goes; the event is a1's latest: stays
    const e2a = await event(a2, OLD, 'delivered', OLD); // goes with its delivery: a later event of a2 exists
    const e2b = await event(a2, OLD, 'failed', OLD); // given up on long ago: the delivery goes, the event stays
    const e3 = await event(a3, OLD, 'pending', OLD); // still being tried: both stay
    const e4 = await event(a4, OLD, 'delivered', RECENT); // sent again from the console lately: both stay
    const ping = await event(null, OLD, 'delivered', OLD); // a test ping: both go
    const e5a = await event(a5, OLD, 'delivered', OLD); // goes: a5 has a newer event
    const e5b = await event(a5, RECENT, 'delivered', RECENT); // recent: both stay

    const webhooks = new WebhookService(t.handle.db, {
      audit: new AuditService(t.handle.db, () => NOW),
      results: new ResultFeedService(t.handle.db, new ExamCatalog(t.handle.db, () => NOW)),
      clock: () => NOW,
      log: pino({ level: 'silent' }),
      allowPrivate: false,
      logDays: 30,
      pruneBatch: 2,
    });
    expect(await webhooks.prune()).toEqual({ deliveries: 5, events: 3 });

    const events = await t.handle.db.selectFrom('webhook_events').select('id').orderBy('id').execute();
    expect(events.map((e) => e.id)).toEqual([e1, e2b, e3, e4, e5b]);
    const deliveries = await t.handle.db
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .orderBy('event_id')
      .execute();
    expect(deliveries.map((d) => d.event_id)).toEqual([e3, e4, e5b]);
    expect([e2a, ping, e5a].every((id) => !events.some((e) => e.id === id))).toBe(true);

    // Nothing more to do on the next run.
    expect(await webhooks.prune()).toEqual({ deliveries: 0, events: 0 });
    // The kept latest event still stops an unchanged score from being sent again.
    await webhooks.noteScore(t.handle.db, a1);
    const a1Events = await t.handle.db.selectFrom('webhook_events').select('id').where('attempt_id', '=', a1).execute();
    expect(a1Events.map((e) => e.id)).toEqual([e1]);
    // While a changed score is (the attempt regraded).
    await t.handle.db.updateTable('attempts').set({ score: 77 }).where('id', '=', a1).execute();
    await webhooks.noteScore(t.handle.db, a1);
    const regraded = await t.handle.db
      .selectFrom('webhook_events')
      .select(['id', 'score'])
      .where('attempt_id', '=', a1)
      .orderBy('id')
      .execute();
    expect(regraded.map((e) => e.score)).toEqual([0, 77]);
  });
});
