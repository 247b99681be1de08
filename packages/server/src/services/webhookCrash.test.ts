/**
 * Webhook deliveries survive the death of the process posting them: a deliverer takes every due delivery and
 * posts it to a receiver that holds the requests unanswered; the process is killed with SIGKILL mid-post; a
 * second one takes the deliveries over once their lease runs out, and every event is acknowledged exactly once
 * (the dead process's tries got no answer, so the receiver acknowledged none of them). On both dialects.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { WebhookRepository } from '../repositories/integrations.js';
import { testedDialects } from '../test/db.js';
import { finishedAttempts } from '../test/finishedAttempts.js';
import { sharedDb, type SharedDb } from '../test/jobKinds.js';
import { startScript, until } from '../test/processes.js';
import { startHookReceiver, type HookReceiver } from '../test/webhookReceiver.js';

const EVENTS = 40;
const SECRET = 'crash-test-secret-0123';

/** Finished attempts of one exam, each with an `attempt.scored` event for the endpoint; answers the event ids. */
async function scoredAttempts(db: Db, endpointId: number): Promise<number[]> {
  const now = Date.now();
  const { examId, attemptIds } = await finishedAttempts(db, EVENTS, now);
  const repo = new WebhookRepository(db);
  const events: number[] = [];
  for (const [i, attemptId] of attemptIds.entries()) {
    events.push(
      await repo.insertEvent(
        { event: 'attempt.scored', attempt_id: attemptId, exam_id: examId, score: i, max_score: 100, created_at: now },
        [endpointId],
        now,
      ),
    );
  }
  return events;
}

describe.each(await testedDialects())('webhook deliveries whose deliverer dies, on %s', (dialect) => {
  let shared: SharedDb;
  let receiver: HookReceiver;
  const closers: (() => Promise<unknown>)[] = [];

  beforeEach(async () => {
    shared = await sharedDb(dialect);
    receiver = await startHookReceiver(SECRET);
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await receiver.close();
    await shared.drop();
  });

  it('lose nothing: every event is acknowledged exactly once after a SIGKILL mid-post', async () => {
    const now = Date.now();
    const endpointId = await new WebhookRepository(shared.db).insertEndpoint({
      url: receiver.url,
      secret: SECRET,
      team_id: null,
      description: '',
      enabled: 1,
      created_by: null,
      created_at: now,
      updated_at: now,
    });
    const events = await scoredAttempts(shared.db, endpointId);
    const env = { ...shared.env, WEBHOOK_LEASE_MS: '1000' };
    receiver.hanging = true;
    const first = await startScript('webhookWorker.ts', env);
    closers.push(async () => void first.kill('SIGKILL'));
    // Every delivery taken and being posted, none answered.
    await until(async () => {
      const held = await shared.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('lease_until', 'is not', null)
        .executeTakeFirstOrThrow();
      return Number(held.n) === EVENTS;
    }, 60_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    receiver.hanging = false;
    const mid = await shared.db.selectFrom('webhook_deliveries').select(['status', 'attempts']).execute();
    expect(mid.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);

    const second = await startScript('webhookWorker.ts', env);
    closers.push(async () => void second.kill('SIGKILL'));
    const delivered = async () =>
      Number(
        (
          await shared.db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'delivered')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await until(async () => (await delivered()) === EVENTS || undefined, 60_000);

    const rows = await shared.db.selectFrom('webhook_deliveries').selectAll().orderBy('event_id').execute();
    expect(rows.map((r) => r.event_id)).toEqual(events);
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1 && r.last_status === 200)).toBe(true);
    // Each event acknowledged once, signed, with the score it carried.
    const acked = receiver.received.filter((r) => r.answered === 200);
    expect(acked.map((r) => Number(r.headers['x-examhall-event'])).sort((a, b) => a - b)).toEqual(events);
    expect(acked.every((r) => r.verified)).toBe(true);
    expect(acked.map((r) => (JSON.parse(r.body) as { score: number }).score).sort((a, b) => a - b)).toEqual(
      Array.from({ length: EVENTS }, (_, i) => i),
    );
  }, 120_000);
});
