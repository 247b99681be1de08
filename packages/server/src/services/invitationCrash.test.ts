/**
 * A bulk invitation survives the death of the process running it: a process inviting 1,000 phones and sending
 * their texts is killed with SIGKILL in the middle, a second one finishes, and every phone is invited once and
 * gets exactly one text (a repeat under the same message id, after a death between the gateway taking a text
 * and its record, counts once, as a gateway treats it). Embedded (the in-process runner on the table) and on
 * Redis (BullMQ), each on both dialects.
 */
import { randomUUID } from 'node:crypto';
import type { JobKind } from '@examhall/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { BullJobQueue } from '../jobs/bullmq.js';
import { LocalJobQueue } from '../jobs/local.js';
import type { JobHandlers, JobQueue } from '../jobs/types.js';
import { JobRepository } from '../repositories/jobs.js';
import { testedDialects } from '../test/db.js';
import { bareExam } from '../test/exams.js';
import { sharedDb, type SharedDb } from '../test/jobKinds.js';
import { requirePart, TEST_REDIS_URL } from '../test/parts.js';
import { startScript, until } from '../test/processes.js';
import { startSmsReceiver, type SmsReceiver } from '../test/smsReceiver.js';

const redisHere = await requirePart('redis');
const PHONES = 1_000;

/** A published exam to invite to, opening tomorrow; answers its id. */
function examOf(db: Db): Promise<number> {
  const now = Date.now();
  return bareExam(db, { start_at: now + 86_400_000, end_at: now + 2 * 86_400_000 }, { now });
}

const modes = [
  { mode: 'embedded', redis: false },
  { mode: 'Redis', redis: true },
] as const;

describe.each(await testedDialects())('a bulk invitation whose process dies, on %s', (dialect) => {
  let shared: SharedDb;
  let sms: SmsReceiver;
  const closers: (() => Promise<unknown>)[] = [];

  beforeEach(async () => {
    shared = await sharedDb(dialect);
    sms = await startSmsReceiver();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await sms.close();
    await shared.drop();
  });

  it.each(modes.filter((m) => !m.redis || redisHere))(
    '$mode: loses and duplicates nothing, every phone gets exactly one text',
    async ({ redis }) => {
      const prefix = `examhall-test-${randomUUID()}`;
      const env: Record<string, string> = {
        ...shared.env,
        JOB_PREFIX: prefix,
        JOB_LEASE_MS: '1000',
        // Small steps: many commits, so the process dies between two of them.
        INVITE_STEP: '10',
        SMS_WEBHOOK_URL: sms.url,
        ...(redis ? { JOB_REDIS: TEST_REDIS_URL } : {}),
      };
      const examId = await examOf(shared.db);
      // This side only enqueues, as an API process does.
      const handlers = {} as JobHandlers<JobKind>;
      const api: JobQueue<JobKind> = redis
        ? new BullJobQueue(shared.open(), handlers, TEST_REDIS_URL, { prefix: `${prefix}bull`, work: false })
        : new LocalJobQueue(shared.open(), handlers);
      closers.push(() => api.close());
      const first = await startScript('inviteWorker.ts', env);
      closers.push(async () => void first.kill('SIGKILL'));
      const phones = Array.from({ length: PHONES }, (_, i) => ({
        area_code: '86',
        phone: `1390000${String(i).padStart(4, '0')}`,
      }));
      const jobId = await api.enqueue({
        kind: 'invitation_bulk',
        payload: { title: '校招笔试', exam_id: examId, phones, candidate_ids: [], send_sms: true, staff_id: null },
        owner: { staffId: null, teamId: null },
      });
      const jobs = new JobRepository(shared.db);

      // Killed once some steps are stored, well before the end (texts of the first steps on their way).
      await until(
        async () => {
          const job = await jobs.byId(jobId);
          return job && job.progress_done >= 50;
        },
        60_000,
        5,
      );
      first.kill('SIGKILL');
      await new Promise((resolve) => first.once('exit', resolve));
      const atDeath = (await jobs.byId(jobId))!.progress_done;
      expect(atDeath).toBeLessThan(PHONES);

      const second = await startScript('inviteWorker.ts', env);
      closers.push(async () => void second.kill('SIGKILL'));
      const done = await until(async () => {
        const job = await jobs.byId(jobId);
        return job?.state === 'done' ? job : undefined;
      }, 90_000);
      expect(JSON.parse(done.result!)).toMatchObject({ created: PHONES, existing: 0, queued: PHONES });
      const sent = async () =>
        Number(
          (
            await shared.db
              .selectFrom('sms_messages')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('state', '=', 'sent')
              .executeTakeFirstOrThrow()
          ).n,
        );
      await until(async () => (await sent()) >= PHONES || undefined, 90_000);

      const invitations = await shared.db
        .selectFrom('invitations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('exam_id', '=', examId)
        .executeTakeFirstOrThrow();
      expect(Number(invitations.n)).toBe(PHONES);
      const texts = await shared.db.selectFrom('sms_messages').select(['phone', 'state']).execute();
      expect(texts).toHaveLength(PHONES);
      expect(texts.every((t) => t.state === 'sent')).toBe(true);
      // Each phone: one message id, delivered.
      const idsByPhone = new Map<string, Set<string>>();
      for (const m of sms.messages) idsByPhone.set(m.phone, (idsByPhone.get(m.phone) ?? new Set()).add(m.message_id!));
      expect(idsByPhone.size).toBe(PHONES);
      expect([...idsByPhone.values()].every((ids) => ids.size === 1)).toBe(true);
      const repeats = sms.messages.length - PHONES;
      // A repeat is only ever the one text the dead process had handed over and not yet recorded.
      expect(repeats).toBeLessThanOrEqual(1);
    },
    120_000,
  );
});
