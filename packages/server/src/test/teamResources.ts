/** Resources of team A that the call fixtures make (test/accessFixtures.ts, test/auditFixtures.ts) and tests reuse. */
import { randomUUID } from 'node:crypto';
import { generateSync } from 'otplib';
import { PNG } from 'pngjs';
import { expect } from 'vitest';
import { waitForJob } from './jobs.js';
import { JobRepository } from '../repositories/jobs.js';
import { WebhookRepository } from '../repositories/integrations.js';
import { BANK_SINGLE, type CallInput, type CallWorld, freshPhone, inject } from './callWorld.js';

/** A picture that is not one: the ID photo call answers image_unreadable, past its access check. */
export const NOT_A_PICTURE = Buffer.from('not a picture');

/** A programming bank question whose Python reference solution passes every case. */
export const BANK_PROGRAMMING = {
  kind: 'programming',
  content: { stem: '<p>Print a+b.</p>', languages: ['python'], samples: [{ input: '1 2\n', output: '3\n' }] },
  key: {
    cases: [{ input: '3 4\n', output: '7\n' }],
    reference: { language: 'python', source: 'a, b = map(int, input().split())\nprint(a + b)\n' },
  },
};

/**
 * A job of team A that another process holds (its lease far off), so no runner here takes it: it stays
 * running until cancelled.
 */
export async function heldJob(w: CallWorld): Promise<number> {
  const repo = new JobRepository(w.t.db.handle.db);
  const id = await repo.insert({
    kind: 'bank_import',
    payload: JSON.stringify({ title: 'held elsewhere' }),
    owner_staff_id: w.ids.authorA,
    team_id: w.teamId,
    created_at: w.t.now(),
  });
  await w.t.db.handle.db
    .updateTable('job')
    .set({ state: 'running', locked_by: 'another-process', lease_until: Date.now() + 3_600_000 })
    .where('id', '=', id)
    .execute();
  return id;
}

/** A new empty bank folder of team A, made by its author; answers its id and name. */
export async function bankFolder(w: CallWorld): Promise<{ id: number; name: string }> {
  const name = `Folder ${randomUUID().slice(0, 8)}`;
  const created = await inject(w.t, w.tokens.authorA, 'POST', '/admin/bank/folders', { name });
  return { id: created.id as number, name };
}

/** A new bank question of team A (single choice unless said), made by its author; answers its id. */
export async function bankQuestion(w: CallWorld, fields: Record<string, unknown> = {}): Promise<number> {
  const created = await inject(w.t, w.tokens.authorA, 'POST', '/admin/bank/questions', {
    question: BANK_SINGLE,
    default_score: 5,
    ...fields,
  });
  return created.id as number;
}

/** A GIFT file of one single-choice question, as an import's upload. */
export function giftFile(): NonNullable<CallInput['file']> {
  return { field: 'file', name: 'one.gift', type: 'text/plain', data: Buffer.from('::Q1:: 1 + 2 = ? {=3 ~4}\n') };
}

/** A candidate of team A (added by its author); answers its id. */
export async function teamCandidate(w: CallWorld, name = 'Access'): Promise<number> {
  const made = await inject(w.t, w.tokens.authorA, 'POST', '/admin/candidates', { phone: freshPhone('132'), name });
  return made.id as number;
}

/** A one-row candidate list. */
export function candidateFile(): NonNullable<CallInput['file']> {
  return {
    field: 'file',
    name: 'list.csv',
    type: 'text/csv',
    data: Buffer.from(`手机号,姓名\n${freshPhone('133')},王五\n`),
  };
}

/** A 1x1 PNG picture. */
export function onePixelPng(): Buffer {
  return PNG.sync.write(new PNG({ width: 1, height: 1 }));
}

/** A new slot of team A's exam tomorrow, made by the admin; answers its id. */
export async function newSlot(w: CallWorld, capacity = 5): Promise<number> {
  const start = w.t.now() + 86_400_000;
  const slot = await inject(w.t, w.tokens.admin, 'POST', '/admin/exam/slot/create', {
    exam_id: w.examId,
    label: `Slot ${randomUUID().slice(0, 6)}`,
    start_at: start,
    end_at: start + 7_200_000,
    capacity,
  });
  return slot.id as number;
}

/** A finished results export of team A's exam, started by its author; answers the job's id. */
export async function resultsExport(w: CallWorld): Promise<number> {
  const started = await inject(w.t, w.tokens.authorA, 'POST', '/admin/results/export', {
    exam_id: w.examId,
    format: 'csv',
  });
  const job = await waitForJob(w.t, w.tokens.authorA, started.job_id as number);
  expect(job.state).toBe('done');
  return job.id;
}

/** An attempt of a new candidate at team A's exam, submitted; answers its id. */
export async function finishedAttempt(w: CallWorld): Promise<number> {
  const { attemptId } = await w.newAttempt();
  await w.t.services.attempts.finish(attemptId, 'submit');
  return attemptId;
}

/** A program long enough to leave fingerprints, for the similarity fixtures. */
/** Pairs made so far: each pair's code is its own, as a copy shared by two candidates is. */
let similarPairs = 0;

/**
 * The code both candidates of the `k`th pair answer. Similarity weighs what few submissions share: were every pair's
 * code the same, the later pairs would be among many holding it and score as work everyone writes.
 */
const similarCode = (k: number) =>
  `import sys\n\nLABELS = ("pair ${k} low", "pair ${k} high", "pair ${k} none")\n\n` +
  `def solve(values):\n    best = ${10_000 + k}\n    for i, v in enumerate(values):\n` +
  `        if v > best and i % 2 == 0:\n            best = v\n    return best\n\n` +
  `print(LABELS[0], solve(list(map(int, sys.stdin.read().split()))), "pair ${k} done")\n`;

/** The programming question of team A's exam (the demo exam has one). */
export async function programmingQuestion(w: CallWorld): Promise<number> {
  const row = await w.t.db.handle.db
    .selectFrom('questions')
    .select('id')
    .where('exam_id', '=', w.examId)
    .where('kind', '=', 'programming')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The id of the demo's Q&A question in team A's published exam version. */
export async function qaQuestion(w: CallWorld): Promise<number> {
  const row = await w.t.db.handle.db
    .selectFrom('questions')
    .innerJoin('exams', 'exams.published_version_id', 'questions.version_id')
    .select('questions.id')
    .where('exams.id', '=', w.examId)
    .where('questions.kind', '=', 'qa')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Two new candidates at team A's exam who answered its programming question with the same code, compared by
 * the similarity job: answers the question and the pair it stored.
 */
export async function similarPair(w: CallWorld): Promise<{ questionId: number; pairId: number }> {
  const questionId = await programmingQuestion(w);
  const attempts = [(await w.newAttempt()).attemptId, (await w.newAttempt()).attemptId];
  const code = similarCode((similarPairs += 1));
  for (const attemptId of attempts) {
    await w.t.db.handle.db
      .insertInto('answers')
      .values({
        attempt_id: attemptId,
        question_id: questionId,
        value: JSON.stringify({ kind: 'code', language: 'python', code }),
        version: 1,
        seq: 1,
        saved_at: w.t.now(),
      })
      .execute();
  }
  const started = await inject(w.t, w.tokens.admin, 'POST', '/admin/grading/similarity/run', {
    exam_id: w.examId,
    question_id: questionId,
  });
  const job = await waitForJob(w.t, w.tokens.admin, started.job_id as number);
  expect(job.state, JSON.stringify(job.error)).toBe('done');
  const pair = await w.t.db.handle.db
    .selectFrom('similarity_pairs')
    .select('id')
    .where('attempt_a', '=', Math.min(...attempts))
    .where('attempt_b', '=', Math.max(...attempts))
    .executeTakeFirstOrThrow();
  return { questionId, pairId: pair.id };
}

/** A finished attempt whose Q&A answer waits for a grader. */
export async function answerToGrade(w: CallWorld): Promise<{ attempt_id: number; question_id: number }> {
  const a = await w.newAttempt();
  const questionId = await qaQuestion(w);
  const res = await w.t.app.inject({
    method: 'POST',
    url: `/api/answer/answer?auth=${a.token}`,
    payload: {
      exam_id: w.examId,
      subject_id: questionId,
      answer: { kind: 'text', html: '<p>Atomicity and durability.</p>', files: [] },
      client_id: randomUUID(),
      seq: 1,
      changed_at: w.t.now(),
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  await w.t.services.attempts.finish(a.attemptId, 'submit');
  return { attempt_id: a.attemptId, question_id: questionId };
}

/**
 * A finished attempt whose Q&A answer has two marks too far apart (by Grader A and another grader of team A,
 * written as their marking would), so it waits for the deciding mark of someone who gave neither.
 */
export async function answerToReconcile(w: CallWorld): Promise<{ attempt_id: number; question_id: number }> {
  const answer = await answerToGrade(w);
  const graders = [w.staffId, await w.newStaff('grader', w.teamId)];
  for (const [i, graderId] of graders.entries()) {
    await w.assign(graderId, 'grader');
    await w.t.db.handle.db
      .insertInto('grading_marks')
      .values({
        ...answer,
        exam_id: w.examId,
        grader_id: graderId,
        criteria: JSON.stringify(i === 0 ? [2.5, 2.5, 0, 0] : [2.5, 2.5, 2.5, 2.5]),
        total: i === 0 ? 5 : 10,
        comment: '',
        reconciling: 0,
        created_at: w.t.now(),
      })
      .execute();
  }
  return answer;
}

/** Proctor X without a second factor, then (with `to`) enrolled up to that point; answers the secret enrolled. */
export async function totpOf(w: CallWorld, to: 'none' | 'enrolled' | 'on'): Promise<string> {
  await w.t.db.handle.db
    .updateTable('staff')
    .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null })
    .where('id', '=', w.ids.proctorX)
    .execute();
  if (to === 'none') return '';
  const { secret } = (await inject(w.t, w.tokens.proctorX, 'POST', '/admin/auth/totp/enrol')) as { secret: string };
  if (to === 'on') {
    const code = generateSync({ secret, epoch: Math.floor(w.t.now() / 1000) });
    await inject(w.t, w.tokens.proctorX, 'POST', '/admin/auth/totp/confirm', { code });
  }
  return secret;
}

/** Gives account `id` a second factor, written directly (as a secret stored before encryption would be). */
export async function secondFactorOn(w: CallWorld, id: number): Promise<void> {
  await w.t.db.handle.db
    .updateTable('staff')
    .set({ totp_secret: 'JBSWY3DPEHPK3PXP', totp_pending_secret: null, totp_last_step: null })
    .where('id', '=', id)
    .execute();
}

/** A new signed-in session of account `id` (a browser elsewhere), as the password login makes one; answers its name. */
export async function staffSession(w: CallWorld, id: number): Promise<string> {
  const { sessionId } = await w.t.services.tokens.issue('staff', id, 3_600_000, {
    method: 'local',
    ip: '192.0.2.10',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0',
  });
  return sessionId!;
}

/** A webhook endpoint (every exam's) at an address nothing answers; answers its id. */
export async function webhookEndpoint(w: CallWorld): Promise<number> {
  return new WebhookRepository(w.t.db.handle.db).insertEndpoint({
    url: 'http://127.0.0.1:9/hook',
    secret: 'a-secret-of-sixteen-chars',
    team_id: null,
    description: 'ATS',
    enabled: 1,
    created_by: w.ids.admin,
    created_at: w.t.now(),
    updated_at: w.t.now(),
  });
}

/** A delivery of an `attempt.scored` event given up on; answers its id. */
export async function failedDelivery(w: CallWorld): Promise<number> {
  const repo = new WebhookRepository(w.t.db.handle.db);
  const endpointId = await webhookEndpoint(w);
  const now = w.t.now();
  const eventId = await repo.insertEvent(
    { event: 'attempt.scored', attempt_id: w.attemptId, exam_id: w.examId, score: 1, max_score: 2, created_at: now },
    [endpointId],
    now,
  );
  const id = await repo.holdEvent(eventId, now);
  await repo.markFailedTry(id, 500, 'answered 500', null, now);
  return id;
}

/** An API token of every exam, made by the admin; answers its id. */
export async function apiTokenId(w: CallWorld): Promise<number> {
  const made = await inject(w.t, w.tokens.admin, 'POST', '/admin/integrations/token/create', { name: 'ATS' });
  return (made.api_token as { id: number }).id;
}
