import { KINDS } from '@examhall/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { SimilarityPairTable } from '../db/schema.js';

/** The kinds whose answers are code (each kind's `code`). */
const CODE_KINDS = [...KINDS.code];

/** A programming question of an exam (one version's copy). */
export interface SimilarityQuestionRow {
  id: number;
  exam_id: number;
  kind: string;
  content: string;
  bank_question_id: number | null;
}

/** One candidate's stored answer to the question, with who they are. */
export interface FinalCodeRow {
  attempt_id: number;
  value: string;
  name: string | null;
  phone: string;
}

/** A stored pair with both candidates and the decider's name. */
export type SimilarityPairRow = Selectable<SimilarityPairTable> & {
  name_a: string | null;
  phone_a: string;
  name_b: string | null;
  phone_b: string;
  decider: string | null;
};

/** A pair as a computation found it. */
export type NewPair = Pick<
  SimilarityPairTable,
  'attempt_a' | 'attempt_b' | 'language' | 'score' | 'share_a' | 'share_b' | 'matched'
>;

/** The pair list's filters, order and page. */
export interface PairListFilter {
  questionId: number;
  status: string | undefined;
  minScore: number | undefined;
  sort: 'score' | 'status';
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** Code similarity's reads and writes: the exam's programming questions, final code, runs and pairs. */
export class SimilarityRepository {
  constructor(private readonly db: Db) {}

  /** Every programming question row of an exam (each version's copies), oldest first. */
  questions(examId: number): Promise<SimilarityQuestionRow[]> {
    return this.db
      .selectFrom('questions')
      .select(['id', 'exam_id', 'kind', 'content', 'bank_question_id'])
      .where('exam_id', '=', examId)
      .where('kind', 'in', CODE_KINDS)
      .orderBy('id')
      .execute();
  }

  /** Answers stored per question id, of attempts that count (no previews). */
  async answerCounts(questionIds: readonly number[]): Promise<Map<number, number>> {
    if (questionIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('answers')
      .innerJoin('attempts', 'attempts.id', 'answers.attempt_id')
      .innerJoin('invitations', 'invitations.id', 'attempts.invitation_id')
      .select((eb) => ['answers.question_id', eb.fn.countAll<number | string>().as('n')])
      .where('answers.question_id', 'in', questionIds)
      .where('invitations.preview', '=', 0)
      .groupBy('answers.question_id')
      .execute();
    return new Map(rows.map((r) => [r.question_id, Number(r.n)]));
  }

  /** The stored answers to any of the question ids, of attempts that count, by attempt. */
  finalCode(examId: number, questionIds: readonly number[]): Promise<FinalCodeRow[]> {
    return this.db
      .selectFrom('answers')
      .innerJoin('attempts', 'attempts.id', 'answers.attempt_id')
      .innerJoin('invitations', 'invitations.id', 'attempts.invitation_id')
      .innerJoin('candidates', 'candidates.id', 'attempts.candidate_id')
      .select(['answers.attempt_id', 'answers.value', 'candidates.name', 'candidates.phone'])
      .where('attempts.exam_id', '=', examId)
      .where('answers.question_id', 'in', questionIds.length > 0 ? questionIds : [0])
      .where('invitations.preview', '=', 0)
      .orderBy('answers.attempt_id')
      .execute();
  }

  /** One attempt's stored answer to any of the question ids. */
  async answerOf(attemptId: number, questionIds: readonly number[]): Promise<string | null> {
    const row = await this.db
      .selectFrom('answers')
      .select('value')
      .where('attempt_id', '=', attemptId)
      .where('question_id', 'in', questionIds.length > 0 ? questionIds : [0])
      .orderBy('saved_at', 'desc')
      .executeTakeFirst();
    return row?.value ?? null;
  }

  /** The last computation of each of the question ids. */
  runs(questionIds: readonly number[]) {
    if (questionIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('similarity_runs').selectAll().where('question_id', 'in', questionIds).execute();
  }

  /** The last computation of a question. */
  run(questionId: number) {
    return this.db.selectFrom('similarity_runs').selectAll().where('question_id', '=', questionId).executeTakeFirst();
  }

  /** Names and phones of attempts' candidates. */
  async people(attemptIds: readonly number[]): Promise<Map<number, { name: string | null; phone: string }>> {
    if (attemptIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('attempts')
      .innerJoin('candidates', 'candidates.id', 'attempts.candidate_id')
      .select(['attempts.id', 'candidates.name', 'candidates.phone'])
      .where('attempts.id', 'in', attemptIds)
      .execute();
    return new Map(rows.map((r) => [r.id, { name: r.name, phone: r.phone }]));
  }

  private pairQuery() {
    return this.db
      .selectFrom('similarity_pairs as p')
      .innerJoin('attempts as aa', 'aa.id', 'p.attempt_a')
      .innerJoin('candidates as ca', 'ca.id', 'aa.candidate_id')
      .innerJoin('attempts as ab', 'ab.id', 'p.attempt_b')
      .innerJoin('candidates as cb', 'cb.id', 'ab.candidate_id')
      .leftJoin('staff as s', 's.id', 'p.decided_by');
  }

  private static readonly PAIR_COLUMNS = [
    'p.id',
    'p.exam_id',
    'p.question_id',
    'p.attempt_a',
    'p.attempt_b',
    'p.language',
    'p.score',
    'p.share_a',
    'p.share_b',
    'p.matched',
    'p.status',
    'p.note',
    'p.decided_by',
    'p.decided_at',
    'p.computed_at',
    'ca.name as name_a',
    'ca.phone as phone_a',
    'cb.name as name_b',
    'cb.phone as phone_b',
    's.name as decider',
  ] as const;

  /** One page of a question's pairs and how many match in all. */
  async pairs(f: PairListFilter): Promise<{ rows: SimilarityPairRow[]; total: number }> {
    let q = this.pairQuery().where('p.question_id', '=', f.questionId);
    if (f.status) q = q.where('p.status', '=', f.status);
    if (f.minScore !== undefined) q = q.where('p.score', '>=', f.minScore);
    const counted = await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    let page = q.select([...SimilarityRepository.PAIR_COLUMNS]);
    page =
      f.sort === 'status'
        ? page.orderBy('p.status', f.order).orderBy('p.score', 'desc')
        : page.orderBy('p.score', f.order);
    const rows = await page.orderBy('p.id').offset(f.offset).limit(f.limit).execute();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  /** One pair. */
  pair(id: number): Promise<SimilarityPairRow | undefined> {
    return this.pairQuery()
      .select([...SimilarityRepository.PAIR_COLUMNS])
      .where('p.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * Writes one batch of a computation's pairs: new ones inserted, known ones given their new scores and the run's
   * time (a decision stays). One statement: the writer is held for one batch only (db/turns.ts).
   */
  async upsertPairs(run: { questionId: number; examId: number; at: number }, batch: readonly NewPair[]): Promise<void> {
    if (batch.length === 0) return;
    await this.db
      .insertInto('similarity_pairs')
      .values(
        batch.map((p) => ({
          ...p,
          exam_id: run.examId,
          question_id: run.questionId,
          decided_by: null,
          decided_at: null,
          computed_at: run.at,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['question_id', 'attempt_a', 'attempt_b']).doUpdateSet((eb) => ({
          language: eb.ref('excluded.language'),
          score: eb.ref('excluded.score'),
          share_a: eb.ref('excluded.share_a'),
          share_b: eb.ref('excluded.share_b'),
          matched: eb.ref('excluded.matched'),
          computed_at: eb.ref('excluded.computed_at'),
        })),
      )
      .execute();
  }

  /** The open pairs of a question, each by its two attempts. */
  async openPairs(questionId: number): Promise<{ id: number; attempt_a: number; attempt_b: number }[]> {
    return this.db
      .selectFrom('similarity_pairs')
      .select(['id', 'attempt_a', 'attempt_b'])
      .where('question_id', '=', questionId)
      .where('status', '=', 'open')
      .execute();
  }

  /** Removes pairs by id (one batch) that are still open: one decided meanwhile stays. */
  async dropOpen(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .deleteFrom('similarity_pairs')
      .where('id', 'in', [...ids])
      .where('status', '=', 'open')
      .execute();
  }

  /** Records a computation's run in `trx` (its groups and counts), replacing the question's last one. */
  async storeRun(
    trx: Db,
    run: {
      questionId: number;
      examId: number;
      jobId: number;
      submissions: number;
      groups: string;
      rarity: string;
      at: number;
    },
  ): Promise<void> {
    const row = {
      question_id: run.questionId,
      exam_id: run.examId,
      job_id: run.jobId,
      submissions: run.submissions,
      groups: run.groups,
      rarity: run.rarity,
      computed_at: run.at,
    };
    await trx
      .insertInto('similarity_runs')
      .values(row)
      .onConflict((oc) =>
        oc.column('question_id').doUpdateSet({
          job_id: row.job_id,
          submissions: row.submissions,
          groups: row.groups,
          rarity: row.rarity,
          computed_at: row.computed_at,
        }),
      )
      .execute();
  }

  /** Records a decision on a pair in `trx`. */
  async decide(
    trx: Db,
    id: number,
    d: { status: string; note: string; decidedBy: number | null; at: number | null },
  ): Promise<void> {
    await trx
      .updateTable('similarity_pairs')
      .set({ status: d.status, note: d.note, decided_by: d.decidedBy, decided_at: d.at })
      .where('id', '=', id)
      .execute();
  }
}
