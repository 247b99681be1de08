/**
 * Answer saves that arrive together are committed together (one transaction on either dialect, one
 * multi-row write on PostgreSQL), and each still gets the outcome it would get alone, in the order they came.
 */
import { randomUUID } from 'node:crypto';
import { QuestionType, type AnswerReceipt, type AnswerValue } from '@examhall/contract';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Candidate } from '../repositories/candidates.js';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { enterExam } from '../test/checks.js';
import { testedDialects } from '../test/db.js';

const PHONE = '13800138000';
const OTHER = '13700137000';

describe.each(await testedDialects())('answer saves committed together on %s', (dialect) => {
  let t: TestApp;
  let examId: number;
  let me: Candidate;
  let other: Candidate;
  let otherToken: string;
  let questions: { id: number; type: number }[];

  /** Logs a candidate in and enters the exam; the candidate and their token. */
  async function entered(phone: string): Promise<{ candidate: Candidate; token: string }> {
    const token = await t.loginCandidate(phone);
    const anid = body<{ list: { anid: number }[] }>(await t.app.inject(`/api/exam/index?auth=${token}`)).data.list[0]!
      .anid;
    expect((await enterExam(t, token, examId, anid)).statusCode).toBe(200);
    return { candidate: (await t.services.candidateAuth.resolve(token))!, token };
  }

  beforeEach(async () => {
    t = await createTestApp(dialect);
    ({ examId } = await t.seed(PHONE));
    await t.invite(examId, OTHER, 0);
    const mine = await entered(PHONE);
    me = mine.candidate;
    ({ candidate: other, token: otherToken } = await entered(OTHER));
    questions = body<{ subject_order: { id: number; type: number }[] }>(
      await t.app.inject(`/api/subject/order-list?exam_id=${examId}&auth=${mine.token}`),
    ).data.subject_order;
  });
  afterEach(async () => t.close());

  const ofType = (type: number) => questions.find((q) => q.type === type)!.id;
  const choice = (option: string): AnswerValue => ({ kind: 'choice', option });
  const save = (
    who: Candidate,
    subject_id: number,
    answer: AnswerValue | undefined,
    seq: number,
    client_id: string = randomUUID(),
    event?: Parameters<TestApp['services']['answers']['save']>[1]['event'],
  ) =>
    t.services.answers.save(who, {
      exam_id: examId,
      subject_id,
      answer,
      client_id,
      seq,
      changed_at: t.now(),
      ...(event === undefined ? {} : { event }),
    });
  const outcome = (r: PromiseSettledResult<AnswerReceipt>) =>
    r.status === 'fulfilled' ? r.value : { code: (r.reason as { code: string }).code };

  it('gives each save of a batch its own outcome when some of them are refused, as if they came one by one', async () => {
    const single = ofType(QuestionType.single);
    const trueFalse = ofType(QuestionType.trueFalse);
    const gradient = ofType(QuestionType.gradient);
    await t.app.inject({
      method: 'POST',
      url: `/api/monitor/finish-exam?auth=${otherToken}`,
      payload: { exam_id: examId },
    });
    const first = randomUUID();
    // Sent in the same turn of the event loop, so they are written in one batch.
    const results = await Promise.allSettled([
      save(me, single, choice('A'), 1, first),
      save(me, single, choice('B'), 2),
      save(me, single, choice('A'), 1, first), // a retry: the first receipt
      save(me, trueFalse, choice('A'), 1, first), // the same client id for another question
      save(other, single, choice('C'), 1), // an attempt finished
      save(me, gradient, undefined, 0, randomUUID(), 1), // an event without an answer
      save(me, single, choice('D'), 1), // older than the stored change: logged, not applied
      save(me, 999_999, choice('A'), 1), // no such question
    ]);
    const at = t.now();
    expect(results.map(outcome)).toEqual([
      { subject_id: single, client_id: first, seq: 1, version: 1, saved_at: at },
      { subject_id: single, client_id: expect.any(String), seq: 2, version: 2, saved_at: at },
      { subject_id: single, client_id: first, seq: 1, version: 1, saved_at: at },
      { code: 'conflict' },
      { code: 'exam_finished' },
      { subject_id: gradient, client_id: expect.any(String), seq: 0, version: 0, saved_at: at },
      { subject_id: single, client_id: expect.any(String), seq: 1, version: 2, saved_at: at },
      { code: 'not_found' },
    ]);
    const answers = await t.db.handle.db.selectFrom('answers').select(['question_id', 'value', 'version']).execute();
    expect(answers).toEqual([{ question_id: single, value: JSON.stringify(choice('B')), version: 2 }]);
    const events = await t.db.handle.db
      .selectFrom('answer_events')
      .select(['question_id', 'seq', 'version', 'event'])
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { question_id: single, seq: 1, version: 1, event: null },
      { question_id: single, seq: 2, version: 2, event: null },
      { question_id: gradient, seq: 0, version: 0, event: 1 },
      { question_id: single, seq: 1, version: 2, event: null },
    ]);
  });

  it('answers every save of many candidates only after its change is committed', async () => {
    const single = ofType(QuestionType.single);
    const saves = Array.from({ length: 30 }, (_, i) =>
      save(i % 2 ? me : other, single, choice(i % 3 ? 'A' : 'B'), i + 1).then(async (receipt) => {
        // Read outside the batch's transaction the moment the receipt arrives.
        const row = await t.db.handle.db
          .selectFrom('answer_events')
          .select('version')
          .where('client_id', '=', receipt.client_id)
          .executeTakeFirst();
        return [receipt.version, row?.version];
      }),
    );
    const seen = await Promise.all(saves);
    for (const [receipt, stored] of seen) expect(stored).toBe(receipt);
    expect(seen.map(([v]) => v)).toEqual(Array.from({ length: 30 }, (_, i) => Math.floor(i / 2) + 1));
    if (dialect === 'postgres') {
      // One transaction (rows of one transaction carry its id), and one answer row per candidate.
      const { rows } = await sql<{
        n: number;
      }>`select count(distinct xmin::text)::int as n from answer_events`.execute(t.db.handle.db);
      expect(rows[0]!.n).toBe(1);
    }
  });
});
