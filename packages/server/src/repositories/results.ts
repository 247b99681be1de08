import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { RankingSort } from '@examhall/contract';
import type { Db } from '../db/database.js';
import type { AttemptTable, Database } from '../db/schema.js';
import { containsPattern } from './bank.js';

/** The submit phase: only finished attempts are ranked. */
const SUBMITTED = 3;

/** What narrows and orders a ranking. */
export interface RankingSpec {
  examId: number;
  /** Rank by this section's points instead of the total. */
  section?: 'linetest' | 'major' | undefined;
  school?: string | undefined;
  major?: string | undefined;
  scoreMin?: number | undefined;
  scoreMax?: number | undefined;
  riskMin?: number | undefined;
  riskMax?: number | undefined;
  flagged?: boolean | undefined;
  sort: RankingSort;
  order: 'asc' | 'desc';
}

/** One ranked attempt as the query answers it. */
export interface RankedRow {
  attempt_id: number;
  candidate_id: number;
  name: string | null;
  phone: string;
  school: string | null;
  major: string | null;
  version_id: number | null;
  score: number;
  max_score: number;
  finished_at: number | null;
  linetest: number;
  linetest_max: number;
  major_points: number;
  major_max: number;
  pending: number;
  risk_count: number;
  confirmed: number;
  open_flags: number;
  rank: number;
}

/** One per-question score row of an attempt, with its question's place. */
export interface AttemptQuestionScore {
  attempt_id: number;
  question_id: number;
  source: string;
  points: number | null;
  max: number;
}

/** Numbers some drivers answer as strings (PostgreSQL's bigint and numeric). */
const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

/** A ranking's key as kept on each attempt (GradingRepository.keepTotals): hundredths of a point. */
type RankKey = 'rank_total' | 'rank_linetest' | 'rank_major';

/** The kept key a ranking orders by: the total's, or the section's. */
const keyOf = (spec: { section?: 'linetest' | 'major' | undefined }): RankKey =>
  spec.section === 'linetest' ? 'rank_linetest' : spec.section === 'major' ? 'rank_major' : 'rank_total';

/** True when a filter leaves out some of the exam's finished attempts (a section only changes the order). */
export function narrows(spec: RankingSpec): boolean {
  return (
    Boolean(spec.school) ||
    Boolean(spec.major) ||
    spec.scoreMin !== undefined ||
    spec.scoreMax !== undefined ||
    spec.riskMin !== undefined ||
    spec.riskMax !== undefined ||
    spec.flagged !== undefined
  );
}

/**
 * The results' SQL: the ranking on the totals each attempt keeps (its sections' points, pending answers and keys,
 * written with its scores), and the reads of one attempt's report and the exam's figures. A page in rank order,
 * narrowed at most by a score range, is read through the key's index (attempts_rank_*), a page's worth of rows with
 * their risk counts; other orders and filters rank every finished attempt with a window function.
 */
export class ResultsRepository {
  constructor(private readonly db: Db) {}

  /** The exam's finished attempts that count (not previews). */
  private counted(examId: number) {
    return this.db
      .selectFrom('attempts as a')
      .where('a.exam_id', '=', examId)
      .where('a.phase', '=', SUBMITTED)
      .where('a.preview', '=', 0);
  }

  /** A ranked row's columns but its rank, each attempt's risk counts read through its own records. */
  private rows(examId: number, key: RankKey) {
    const risks = (eb: ExpressionBuilder<Database & { a: AttemptTable }, 'a'>) =>
      eb.selectFrom('risk_records as r').whereRef('r.attempt_id', '=', 'a.id').where('r.kind', '=', 'risk');
    return this.counted(examId)
      .innerJoin('candidates as c', 'c.id', 'a.candidate_id')
      .select((eb) => [
        ...this.columns(key),
        risks(eb)
          .select(sql<number>`count(*)`.as('n'))
          .as('risk_count'),
        risks(eb)
          .where('r.decision', '=', 'confirmed')
          .select(sql<number>`count(*)`.as('n'))
          .as('confirmed'),
        risks(eb)
          .where('r.decision', 'is', null)
          .select(sql<number>`count(*)`.as('n'))
          .as('open_flags'),
      ]);
  }

  /** The attempt's and candidate's columns of a ranked row, from attempts `a` and candidates `c`. */
  private columns(key: RankKey) {
    return [
      'a.id as attempt_id',
      'a.candidate_id',
      'c.name',
      'c.phone',
      'c.school',
      'c.major',
      'a.version_id',
      sql<number>`coalesce(a.score, 0)`.as('score'),
      sql<number>`coalesce(a.max_score, 0)`.as('max_score'),
      'a.finished_at',
      'a.linetest_points as linetest',
      'a.linetest_max',
      'a.major_points',
      'a.major_max',
      'a.pending_marks as pending',
      sql<number>`${sql.ref(`a.${key}`)}`.as('rank_key'),
    ] as const;
  }

  /** The rank of an attempt whose key is `value`: one more than the exam's finished attempts above it. */
  private async rankAt(examId: number, key: RankKey, value: number): Promise<number> {
    const r = await this.counted(examId)
      .where(`a.${key}`, '>', value)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirst();
    return 1 + num(r?.n);
  }

  /**
   * Every finished attempt of the exam with its kept points, risk counts and rank. The rank is taken over all of
   * them (by the total, or the section's points) before any filter, so a filter never renumbers; ties are compared
   * in hundredths of a point, as scores are kept.
   */
  private ranked(spec: RankingSpec) {
    const key = keyOf(spec);
    return this.db
      .with('rk', (db) =>
        db
          .selectFrom('risk_records as r')
          .innerJoin('attempts as ra', 'ra.id', 'r.attempt_id')
          .where('ra.exam_id', '=', spec.examId)
          .where('r.kind', '=', 'risk')
          .groupBy('r.attempt_id')
          .select([
            'r.attempt_id',
            sql<number>`count(*)`.as('risk_count'),
            sql<number>`sum(case when r.decision = 'confirmed' then 1 else 0 end)`.as('confirmed'),
            sql<number>`sum(case when r.decision is null then 1 else 0 end)`.as('open_flags'),
          ]),
      )
      .with('ranked', (db) =>
        db
          .selectFrom('attempts as a')
          .innerJoin('candidates as c', 'c.id', 'a.candidate_id')
          .leftJoin('rk', 'rk.attempt_id', 'a.id')
          .where('a.exam_id', '=', spec.examId)
          .where('a.phase', '=', SUBMITTED)
          .where('a.preview', '=', 0)
          .select([
            ...this.columns(key),
            sql<number>`coalesce(rk.risk_count, 0)`.as('risk_count'),
            sql<number>`coalesce(rk.confirmed, 0)`.as('confirmed'),
            sql<number>`coalesce(rk.open_flags, 0)`.as('open_flags'),
            sql<number>`rank() over (order by ${sql.ref(`a.${key}`)} desc)`.as('rank'),
          ]),
      )
      .selectFrom('ranked')
      .$if(Boolean(spec.school), (qb) =>
        qb.where(
          sql<SqlBool>`lower(coalesce(ranked.school, '')) like lower(${containsPattern(spec.school!)}) escape '!'`,
        ),
      )
      .$if(Boolean(spec.major), (qb) =>
        qb.where(
          sql<SqlBool>`lower(coalesce(ranked.major, '')) like lower(${containsPattern(spec.major!)}) escape '!'`,
        ),
      )
      .$if(spec.scoreMin !== undefined, (qb) => qb.where('ranked.rank_key', '>=', Math.round(spec.scoreMin! * 100)))
      .$if(spec.scoreMax !== undefined, (qb) => qb.where('ranked.rank_key', '<=', Math.round(spec.scoreMax! * 100)))
      .$if(spec.riskMin !== undefined, (qb) => qb.where('ranked.risk_count', '>=', spec.riskMin!))
      .$if(spec.riskMax !== undefined, (qb) => qb.where('ranked.risk_count', '<=', spec.riskMax!))
      .$if(spec.flagged !== undefined, (qb) => qb.where('ranked.confirmed', spec.flagged ? '>' : '=', 0));
  }

  /** One page of the ranking, and how many rows the filters match. */
  async ranking(spec: RankingSpec, offset: number, limit: number): Promise<{ rows: RankedRow[]; total: number }> {
    const byKey =
      spec.sort === 'rank' &&
      !spec.school &&
      !spec.major &&
      spec.riskMin === undefined &&
      spec.riskMax === undefined &&
      spec.flagged === undefined;
    return byKey ? this.keptPage(spec, offset, limit) : this.windowPage(spec, offset, limit);
  }

  /**
   * A page in rank order (best first, or with `desc` last first), narrowed at most by a score range: the page's rows
   * read in the key's index order with the rows matched counted beside them in the same statement; ranks from the
   * attempts above the page's first row, then from each row's place (asc) or the attempts above each key (desc).
   */
  private async keptPage(
    spec: RankingSpec,
    offset: number,
    limit: number,
  ): Promise<{ rows: RankedRow[]; total: number }> {
    const key = keyOf(spec);
    const lo = spec.scoreMin !== undefined ? Math.round(spec.scoreMin * 100) : undefined;
    const hi = spec.scoreMax !== undefined ? Math.round(spec.scoreMax * 100) : undefined;
    const matched = this.db
      .selectFrom('attempts as m')
      .where('m.exam_id', '=', spec.examId)
      .where('m.phase', '=', SUBMITTED)
      .where('m.preview', '=', 0)
      .$if(lo !== undefined, (qb) => qb.where(`m.${key}`, '>=', lo!))
      .$if(hi !== undefined, (qb) => qb.where(`m.${key}`, '<=', hi!))
      .select(sql<number>`count(*)`.as('n'));
    const best = spec.order === 'asc';
    const rows = await this.rows(spec.examId, key)
      .select(matched.as('matched'))
      .$if(lo !== undefined, (qb) => qb.where(`a.${key}`, '>=', lo!))
      .$if(hi !== undefined, (qb) => qb.where(`a.${key}`, '<=', hi!))
      .orderBy(`a.${key}`, best ? 'desc' : 'asc')
      .orderBy('a.id')
      .limit(limit)
      .offset(offset)
      .execute();
    if (rows.length === 0) {
      const total = offset === 0 ? undefined : await matched.executeTakeFirst();
      return { rows: [], total: num(total?.n ?? 0) };
    }
    const keys = rows.map((r) => num(r.rank_key));
    const ranks: number[] = [];
    if (best) {
      // Attempts above the score range come before the page's range; past the first row, a new key's rank is its place.
      const above = hi === undefined ? 0 : (await this.rankAt(spec.examId, key, hi)) - 1;
      for (const [i, k] of keys.entries()) {
        if (i === 0) ranks.push(offset === 0 && hi === undefined ? 1 : await this.rankAt(spec.examId, key, k));
        else ranks.push(k === keys[i - 1] ? ranks[i - 1]! : above + offset + i + 1);
      }
    } else {
      const known = new Map<number, number>();
      for (const k of keys) {
        if (!known.has(k)) known.set(k, await this.rankAt(spec.examId, key, k));
        ranks.push(known.get(k)!);
      }
    }
    return { rows: rows.map((r, i) => toRanked({ ...r, rank: ranks[i] })), total: num(rows[0]!.matched) };
  }

  /** A page in another order or narrowed by another filter: every finished attempt ranked, filtered, sorted. */
  private async windowPage(
    spec: RankingSpec,
    offset: number,
    limit: number,
  ): Promise<{ rows: RankedRow[]; total: number }> {
    const base = this.ranked(spec);
    const dir = spec.order;
    let page = base.selectAll('ranked');
    switch (spec.sort) {
      case 'rank':
        page = page.orderBy('ranked.rank', dir);
        break;
      case 'name':
        page = page.orderBy(sql`coalesce(ranked.name, '')`, dir);
        break;
      case 'school':
        page = page.orderBy(sql`coalesce(ranked.school, '')`, dir);
        break;
      case 'risk_count':
        page = page.orderBy('ranked.risk_count', dir);
        break;
      case 'finished_at':
        page = page.orderBy('ranked.finished_at', dir);
        break;
    }
    // The rows the filters match are counted in the same statement (a window over them, before the page is cut);
    // only a page past the end asks again.
    const rows = await page
      .select(sql<number>`count(*) over ()`.as('matched'))
      .orderBy('ranked.rank')
      .orderBy('ranked.attempt_id')
      .offset(offset)
      .limit(limit)
      .execute();
    if (rows.length > 0) return { rows: rows.map(toRanked), total: num(rows[0]!.matched) };
    const total = offset === 0 ? undefined : await base.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
    return { rows: [], total: num(total?.n ?? 0) };
  }

  /** Every row of the ranking the filters match, in rank order (an export reads them once). */
  async allRanked(spec: RankingSpec): Promise<RankedRow[]> {
    const rows = await this.ranked(spec)
      .selectAll('ranked')
      .orderBy('ranked.rank')
      .orderBy('ranked.attempt_id')
      .execute();
    return rows.map(toRanked);
  }

  /** One attempt's row of its exam's ranking by total, or undefined when it is not ranked (not finished). */
  async rankOf(examId: number, attemptId: number): Promise<{ row: RankedRow; ranked: number } | undefined> {
    const row = await this.rows(examId, 'rank_total').where('a.id', '=', attemptId).executeTakeFirst();
    if (!row) return undefined;
    const rank = await this.rankAt(examId, 'rank_total', num(row.rank_key));
    return { row: toRanked({ ...row, rank }), ranked: await this.finishedCount(examId) };
  }

  /** Finished attempts of the exam (not previews). */
  async finishedCount(examId: number): Promise<number> {
    const r = await this.db
      .selectFrom('attempts')
      .select(sql<number>`count(*)`.as('n'))
      .where('exam_id', '=', examId)
      .where('phase', '=', SUBMITTED)
      .where('preview', '=', 0)
      .executeTakeFirst();
    return num(r?.n);
  }

  /** Per-question score rows of these attempts. */
  scoresOf(attemptIds: readonly number[]): Promise<AttemptQuestionScore[]> {
    if (attemptIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('question_scores')
      .select(['attempt_id', 'question_id', 'source', 'points', 'max'])
      .where('attempt_id', 'in', attemptIds)
      .execute();
  }

  /** Ids and versions of the exam's finished attempts. */
  finishedAttempts(examId: number): Promise<{ id: number; version_id: number | null; question_ids: string | null }[]> {
    return this.db
      .selectFrom('attempts')
      .select(['id', 'version_id', 'question_ids'])
      .where('exam_id', '=', examId)
      .where('phase', '=', SUBMITTED)
      .where('preview', '=', 0)
      .orderBy('id')
      .execute();
  }

  /** Mean points per question over the exam's finished attempts (graded ones only for a grader's question). */
  async questionMeans(examId: number): Promise<Map<number, { mean: number | null; max: number }>> {
    const rows = await this.db
      .selectFrom('question_scores as qs')
      .innerJoin('attempts as a', 'a.id', 'qs.attempt_id')
      .where('qs.exam_id', '=', examId)
      .where('a.phase', '=', SUBMITTED)
      .where('a.preview', '=', 0)
      .groupBy('qs.question_id')
      .select(['qs.question_id', sql<number | null>`avg(qs.points)`.as('mean'), sql<number>`max(qs.max)`.as('max')])
      .execute();
    return new Map(
      rows.map((r) => [r.question_id, { mean: r.mean === null ? null : Number(r.mean), max: num(r.max) }]),
    );
  }

  /**
   * The navigation events of the exam's finished attempts (enter, goto, prevAndNext, leave, submit), in each
   * attempt's order, with the attempts' start and finish: what time per question is read from.
   */
  async navigation(
    examId: number,
    attemptId?: number,
  ): Promise<{ attempt_id: number; question_id: number; event: number; changed_at: number }[]> {
    return this.db
      .selectFrom('answer_events as e')
      .innerJoin('attempts as a', 'a.id', 'e.attempt_id')
      .select(['e.attempt_id', 'e.question_id', sql<number>`e.event`.as('event'), 'e.changed_at'])
      .where('a.exam_id', '=', examId)
      .where('a.phase', '=', SUBMITTED)
      .where('a.preview', '=', 0)
      .$if(attemptId !== undefined, (qb) => qb.where('a.id', '=', attemptId!))
      .where('e.event', 'is not', null)
      .orderBy('e.attempt_id')
      .orderBy('e.changed_at')
      .orderBy('e.id')
      .execute();
  }

  /** Start and finish of the exam's finished attempts. */
  spans(examId: number): Promise<{ id: number; started_at: number | null; finished_at: number | null }[]> {
    return this.db
      .selectFrom('attempts')
      .select(['id', 'started_at', 'finished_at'])
      .where('exam_id', '=', examId)
      .where('phase', '=', SUBMITTED)
      .where('preview', '=', 0)
      .execute();
  }

  /** Stored answers of the questions given, over the exam's finished attempts (the evaluation's dimensions). */
  answersTo(
    examId: number,
    questionIds: readonly number[],
  ): Promise<{ attempt_id: number; question_id: number; value: string }[]> {
    if (questionIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('answers as x')
      .innerJoin('attempts as a', 'a.id', 'x.attempt_id')
      .select(['x.attempt_id', 'x.question_id', 'x.value'])
      .where('a.exam_id', '=', examId)
      .where('a.phase', '=', SUBMITTED)
      .where('a.preview', '=', 0)
      .where('x.question_id', 'in', questionIds)
      .execute();
  }

  /** The risk records of an attempt with their decisions, newest first. */
  risks(attemptId: number): Promise<
    {
      id: number;
      risk: number;
      decision: string | null;
      decision_note: string;
      decided_at: number | null;
    }[]
  > {
    return this.db
      .selectFrom('risk_records')
      .select(['id', 'risk', 'decision', 'decision_note', 'decided_at'])
      .where('attempt_id', '=', attemptId)
      .where('kind', '=', 'risk')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Warnings proctors sent to the attempt. */
  async warnings(attemptId: number): Promise<number> {
    const r = await this.db
      .selectFrom('warnings')
      .select(sql<number>`count(*)`.as('n'))
      .where('attempt_id', '=', attemptId)
      .executeTakeFirst();
    return num(r?.n);
  }

  /** The judge's submits of an attempt per question: the latest judged one and how many were made. */
  async submits(
    attemptId: number,
  ): Promise<
    Map<number, { language: string; verdict: string | null; passed: number | null; total: number; submits: number }>
  > {
    const rows = await this.db
      .selectFrom('judge_runs')
      .select(['question_id', 'language', 'verdict', 'passed', 'total', 'finished_at'])
      .where('attempt_id', '=', attemptId)
      .where('mode', '=', 'submit')
      .orderBy('id')
      .execute();
    const out = new Map<
      number,
      { language: string; verdict: string | null; passed: number | null; total: number; submits: number }
    >();
    for (const r of rows) {
      const seen = out.get(r.question_id);
      const submits = (seen?.submits ?? 0) + 1;
      // The latest judged submit decides; a submit still judging shows only while none was judged.
      if (!seen || r.finished_at !== null || seen.verdict === null) {
        out.set(r.question_id, { language: r.language, verdict: r.verdict, passed: r.passed, total: r.total, submits });
      } else {
        seen.submits = submits;
      }
    }
    return out;
  }
}

/** A ranking row with its numbers as numbers (PostgreSQL answers sums and counts as strings). */
function toRanked(r: Record<string, unknown>): RankedRow {
  return {
    attempt_id: num(r.attempt_id),
    candidate_id: num(r.candidate_id),
    name: (r.name as string | null) ?? null,
    phone: String(r.phone),
    school: (r.school as string | null) ?? null,
    major: (r.major as string | null) ?? null,
    version_id: r.version_id === null ? null : num(r.version_id),
    score: num(r.score),
    max_score: num(r.max_score),
    finished_at: r.finished_at === null ? null : num(r.finished_at),
    linetest: num(r.linetest),
    linetest_max: num(r.linetest_max),
    major_points: num(r.major_points),
    major_max: num(r.major_max),
    pending: num(r.pending),
    risk_count: num(r.risk_count),
    confirmed: num(r.confirmed),
    open_flags: num(r.open_flags),
    rank: num(r.rank),
  };
}
