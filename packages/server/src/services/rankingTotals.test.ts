/**
 * The ranking reads totals each attempt keeps (its sections' points and worth, answers waiting for a grader, the
 * ranking's keys), written with its scores; on both dialects. After each kind of write (automatic scoring at submit,
 * a grader's mark, a reconciliation, new grading settings, a key change that re-scores, a reopening and the finish
 * after it) the kept totals equal the sums of the per-question rows and the score, as the ranking made them at each
 * read before. And a page read through the kept key's index answers what ranking every attempt answers, with ties,
 * in both orders, by section, within score ranges and at every offset.
 */
import { api, type AnswerValue, type GradingMarkData } from '@examhall/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { GradingRepository } from '../repositories/grading.js';
import { ResultsRepository, type RankingSpec } from '../repositories/results.js';
import { ResultsSeedRepository } from '../repositories/resultsSeed.js';
import { adminApp, examGrader, questionOfKind, takeExam } from '../test/examScenario.js';
import { testedDialects } from '../test/db.js';
import { waitForJob } from '../test/jobs.js';
import { planOf, sqlRecorder } from '../test/queryPlan.js';

const QA_ANSWER: AnswerValue = { kind: 'text', html: '<p>Atomicity, isolation.</p>', files: [] };

/** What an attempt keeps for the ranking. */
interface Totals {
  linetest_points: number;
  linetest_max: number;
  major_points: number;
  major_max: number;
  pending_marks: number;
  rank_total: number;
  rank_linetest: number;
  rank_major: number;
}

describe.each(await testedDialects())('kept ranking totals on %s', (dialect) => {
  const s = adminApp(dialect, { each: true });
  const { ok } = s;

  /** The totals each attempt of the exam keeps. */
  async function kept(): Promise<Map<number, Totals>> {
    const rows = await s.t.db.handle.db
      .selectFrom('attempts')
      .select([
        'id',
        'linetest_points',
        'linetest_max',
        'major_points',
        'major_max',
        'pending_marks',
        'rank_total',
        'rank_linetest',
        'rank_major',
      ])
      .where('exam_id', '=', s.examId)
      .execute();
    return new Map(rows.map(({ id, ...r }) => [id, numbers(r)]));
  }

  /** The same totals summed from each attempt's per-question rows and score, as the ranking did at each read. */
  async function computed(): Promise<Map<number, Totals>> {
    const points = (kind: string) =>
      sql<number>`coalesce(sum(case when s.kind = ${kind} then coalesce(qs.points, 0) else 0 end), 0)`;
    const worth = (kind: string) => sql<number>`coalesce(sum(case when s.kind = ${kind} then qs.max else 0 end), 0)`;
    const rows = await s.t.db.handle.db
      .selectFrom('attempts as a')
      .leftJoin('question_scores as qs', 'qs.attempt_id', 'a.id')
      .leftJoin('questions as q', 'q.id', 'qs.question_id')
      .leftJoin('exam_sections as s', 's.id', 'q.section_id')
      .where('a.exam_id', '=', s.examId)
      .groupBy(['a.id', 'a.score'])
      .select([
        'a.id',
        points('linetest').as('linetest_points'),
        worth('linetest').as('linetest_max'),
        points('major').as('major_points'),
        worth('major').as('major_max'),
        sql<number>`sum(case when qs.source = 'manual' and qs.points is null then 1 else 0 end)`.as('pending_marks'),
        sql<number>`round(coalesce(a.score, 0) * 100)`.as('rank_total'),
        sql<number>`round(${points('linetest')} * 100)`.as('rank_linetest'),
        sql<number>`round(${points('major')} * 100)`.as('rank_major'),
      ])
      .execute();
    return new Map(rows.map(({ id, ...r }) => [id, numbers(r)]));
  }

  /** Expects every attempt's kept totals to be the computed ones; answers them. */
  async function expectKept(): Promise<Map<number, Totals>> {
    const now = await kept();
    expect(now).toEqual(await computed());
    return now;
  }

  /** The id of the published version's question of a kind. */
  const questionOf = (kind: string) => questionOfKind(s.t, s.examId, kind);

  /** A grader of the exam: their token. */
  const grader = async (name: string) => (await examGrader(s.t, s.admin, s.examId, name)).token;

  /** A candidate who enters the exam, saves these answers and submits; answers the attempt id. */
  const candidate = async (answers: Record<number, AnswerValue>) => (await takeExam(s.t, s.examId, answers)).attemptId;

  it('equal the sums of the per-question rows after every kind of write', async () => {
    const single = await questionOf('single');
    const qa = await questionOf('qa');
    const right = { [single]: { kind: 'choice', option: 'B' } as AnswerValue, [qa]: QA_ANSWER };
    const wrong = { [single]: { kind: 'choice', option: 'A' } as AnswerValue, [qa]: QA_ANSWER };

    // Scored at submit: the choice counts at once, the Q&A waits for a grader.
    const [a, b, c] = [await candidate(right), await candidate(wrong), await candidate(right)];
    let totals = await expectKept();
    expect(totals.get(a)).toMatchObject({ pending_marks: 1, rank_total: 500 });
    expect(totals.get(b)).toMatchObject({ pending_marks: 1, rank_total: 0 });

    // A grader's mark decides the Q&A of one attempt.
    const ref = (attempt_id: number) => ({ attempt_id, question_id: qa });
    const first = await grader('First');
    await ok(api.gradingMark, { ...ref(a), criteria: [2.5, 2.5, 2.5, 1] }, first);
    totals = await expectKept();
    expect(totals.get(a)).toMatchObject({ pending_marks: 0, rank_total: 1350 });

    // Double marking: a's one mark no longer decides; two marks too far apart wait, a reconciling mark decides.
    await ok(api.gradingSettings, { exam_id: s.examId, blind: false, double_marking: true, margin: 1 });
    expect((await expectKept()).get(a)).toMatchObject({ pending_marks: 1, rank_total: 500 });
    const second = await grader('Second');
    await ok(api.gradingMark, { ...ref(b), criteria: [2.5, 2.5, 0, 0] }, first);
    await ok(api.gradingMark, { ...ref(b), criteria: [2.5, 2.5, 2.5, 2.5] }, second);
    expect((await expectKept()).get(b)).toMatchObject({ pending_marks: 1, rank_total: 0 });
    const decided = await ok<GradingMarkData>(api.gradingReconcileMark, { ...ref(b), criteria: [2.5, 2.5, 2.5, 0] });
    expect(decided.final).toBe(7.5);
    expect((await expectKept()).get(b)).toMatchObject({ pending_marks: 0, rank_total: 750 });

    // New settings decide marked answers again: c's two marks settle under a wider margin.
    await ok(api.gradingMark, { ...ref(c), criteria: [2.5, 2.5, 0, 0] }, first);
    await ok(api.gradingMark, { ...ref(c), criteria: [2.5, 2.5, 2.5, 0.5] }, second);
    expect((await expectKept()).get(c)).toMatchObject({ pending_marks: 1 });
    await ok(api.gradingSettings, { exam_id: s.examId, blind: false, double_marking: true, margin: 3 });
    expect((await expectKept()).get(c)).toMatchObject({ pending_marks: 0, rank_total: 1150 });
    await ok(api.gradingMark, { ...ref(a), criteria: [2.5, 2.5, 2.5, 2.5] }, second);
    expect((await expectKept()).get(a)).toMatchObject({ pending_marks: 0, rank_total: 1425 });

    // A key change re-scores every finished attempt in a job.
    const { job_id } = await ok<{ job_id: number }>(api.gradingKey, {
      exam_id: s.examId,
      question_id: single,
      key: { option: 'A' },
    });
    expect(await waitForJob(s.t, s.admin, job_id)).toMatchObject({ state: 'done', result: { changed: 3 } });
    totals = await expectKept();
    expect([a, b, c].map((id) => totals.get(id)!.rank_total)).toEqual([925, 1250, 650]);

    // Reopened, the attempt has no score until it finishes again (by the sweep, once its new time is up).
    await ok(api.scheduleReopen, { attempt_id: a, reason: 'Power cut in the room', minutes: 10 });
    expect((await expectKept()).get(a)).toMatchObject({ rank_total: 0 });
    s.t.advance(11 * 60_000);
    expect(await s.t.services.attempts.sweepOverdue()).toBe(1);
    expect((await expectKept()).get(a)).toMatchObject({ rank_total: 925 });
  });

  it("the first page by total is one read in the index's order, never a sort of every attempt", async () => {
    const recorder = sqlRecorder(dialect);
    await new ResultsRepository(recorder.db).ranking({ examId: s.examId, sort: 'rank', order: 'asc' }, 0, 20);
    expect(recorder.queries).toHaveLength(1);
    const plan = await planOf(s.t.db.handle.db, dialect, recorder.queries[0]!);
    if (dialect === 'sqlite') {
      expect(plan).toMatch(/SEARCH a USING INDEX attempts_rank_total \(exam_id=\? AND phase=\? AND preview=\?\)/);
      expect(plan).not.toMatch(/TEMP B-TREE|SCAN a\b|SCAN r\b/);
    } else {
      expect(plan).toMatch(/Index Scan using attempts_rank_total on attempts a/);
      expect(plan).not.toMatch(/Sort|Seq Scan/);
    }
  });

  it('a page read through the kept key answers as ranking every attempt does', async () => {
    // 120 attempts on whole and half points in both sections, so that many tie, written in bulk and kept at once.
    const questions = await s.t.db.handle.db
      .selectFrom('questions as q')
      .innerJoin('exams as e', 'e.published_version_id', 'q.version_id')
      .innerJoin('exam_sections as s', 's.id', 'q.section_id')
      .select(['q.id', 'q.score', 's.kind'])
      .where('e.id', '=', s.examId)
      .where('s.kind', '!=', 'evaluation')
      .orderBy('q.id')
      .execute();
    const seed = new ResultsSeedRepository(s.t.db.handle.db);
    const n = 120;
    const phones = Array.from({ length: n }, (_, i) => `1372${String(i).padStart(7, '0')}`);
    const now = s.t.now();
    const candidates = await seed.candidates(
      phones.map((phone, i) => ({
        area_code: '86',
        phone,
        name: `C${i}`,
        school: i % 3 === 0 ? 'Tsinghua' : 'Fudan',
        major: null,
        degree: null,
        graduation_year: null,
        created_at: now,
        last_login_at: null,
      })),
    );
    const invitations = await seed.invitations(
      phones.map((phone) => ({ exam_id: s.examId, area_code: '86', phone, extra_minutes: 0, created_at: now })),
    );
    const points = phones.map((_, i) => questions.map((q, j) => Math.min(q.score, ((i * 7 + j * 3) % 5) / 2)));
    const attempts = await seed.attempts(
      phones.map((_, i) => ({
        exam_id: s.examId,
        candidate_id: candidates[i]!,
        invitation_id: invitations[i]!,
        mode: 1,
        phase: i % 10 === 9 ? 2 : 3,
        preview: i % 15 === 14 ? 1 : 0,
        created_at: now,
        started_at: now,
        end_at: now,
        finished_at: now + i,
        finish_reason: 'submit',
        score: points[i]!.reduce((s, p) => s + p, 0),
        max_score: 100,
      })),
    );
    await seed.scores(
      attempts.flatMap((attempt_id, i) =>
        questions.map((q, j) => ({
          attempt_id,
          question_id: q.id,
          exam_id: s.examId,
          source: 'auto',
          points: points[i]![j]!,
          max: q.score,
          updated_at: now,
        })),
      ),
    );
    await new GradingRepository(s.t.db.handle.db).keepTotalsOf(attempts);
    await expectKept();

    const repo = new ResultsRepository(s.t.db.handle.db);
    const specs: RankingSpec[] = [];
    for (const order of ['asc', 'desc'] as const) {
      for (const section of [undefined, 'linetest', 'major'] as const) {
        for (const range of [{}, { scoreMin: 2 }, { scoreMax: 6 }, { scoreMin: 1.5, scoreMax: 4 }]) {
          specs.push({ examId: s.examId, sort: 'rank', order, section, ...range });
        }
      }
    }
    for (const spec of specs) {
      // A risk floor of 0 leaves every row in, and takes the way that ranks every attempt.
      const everyRow = await repo.ranking({ ...spec, riskMin: 0 }, 0, 1_000);
      for (const [offset, limit] of [
        [0, 20],
        [7, 13],
        [20, 20],
        [95, 20],
        [200, 20],
      ] as const) {
        const page = await repo.ranking(spec, offset, limit);
        const where = JSON.stringify({ ...spec, offset });
        expect(page.total, where).toBe(everyRow.total);
        expect(page.rows, where).toEqual(everyRow.rows.slice(offset, offset + limit));
      }
    }
  });
});

/** A row's figures as numbers (PostgreSQL answers counts and sums as strings). */
function numbers(r: Record<string, unknown>): Totals {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])) as unknown as Totals;
}
