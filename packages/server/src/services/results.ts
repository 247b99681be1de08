import {
  api,
  ExamPhase,
  GRADED_SECTIONS,
  type ParsedQuery,
  type RankingData,
  type RankingRow,
  type ResultReportData,
  type ResultStatsData,
  type SectionScore,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { AttemptRepository } from '../repositories/attempts.js';
import { narrows, ResultsRepository, type RankedRow, type RankingSpec } from '../repositories/results.js';
import type { AccessService, StaffActor } from './access.js';
import type { AttemptService } from './attempts.js';
import { type CatalogQuestion, type ExamCatalog, type VersionBundle } from './catalog.js';
import { passedBy } from './outcome.js';
import { maskPhone } from './proctor.js';
import { timePerQuestion, type NavigationEvent } from './resultTime.js';
import { htmlToText } from './richText.js';
import { dimensionsOf } from './resultDimensions.js';
import { roundPoints, storedAnswer } from './scoring.js';

/** Longest stem text a report shows per question. */
const STEM_CHARS = 120;

/** What results need from the other services. */
export interface ResultsDeps {
  access: AccessService;
  attempts: AttemptService;
  catalog: ExamCatalog;
}

/** The ranking's filters as a query or an export gives them. */
type FilterInput = Omit<RankingSpec, 'examId' | 'sort' | 'order'>;

/** The median of sorted numbers. */
function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Results of an exam's finished attempts: the ranking (by total or a section, ties sharing a rank), one
 * attempt's report and the figures the charts draw (exports: resultsExport.ts; the evaluation's dimensions:
 * resultDimensions.ts).
 */
export class ResultsService {
  private readonly repo: ResultsRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: ResultsDeps,
  ) {
    this.repo = new ResultsRepository(db);
  }

  /** The pass rule of a version (none when the version or its definition is missing). */
  private async ruleOf(versionId: number | null, cache: Map<number, VersionBundle | null>) {
    if (versionId === null) return { kind: 'none' as const };
    if (!cache.has(versionId)) cache.set(versionId, await this.deps.catalog.version(versionId));
    return cache.get(versionId)?.definition?.passing ?? { kind: 'none' as const };
  }

  /** True when a version the attempts `rows` took has a pass rule: without one, nobody passes or fails. */
  async hasPassRule(rows: readonly RankedRow[], versions: Map<number, VersionBundle | null>): Promise<boolean> {
    for (const vid of new Set(rows.map((r) => r.version_id))) {
      if ((await this.ruleOf(vid, versions)).kind !== 'none') return true;
    }
    return false;
  }

  /** The scored sections the attempts `rows` have (a section worth no points to any of them is not one). */
  static sectionsOf(rows: readonly RankedRow[]): ('linetest' | 'major')[] {
    const out: ('linetest' | 'major')[] = [];
    if (rows.some((r) => r.linetest_max > 0)) out.push('linetest');
    if (rows.some((r) => r.major_max > 0)) out.push('major');
    return out;
  }

  /** A ranked row as the console shows it (and an export writes it). */
  async toRow(r: RankedRow, hide: boolean, versions: Map<number, VersionBundle | null>): Promise<RankingRow> {
    const sections: SectionScore[] = [];
    if (r.linetest_max > 0) {
      sections.push({ section: 'linetest', score: roundPoints(r.linetest), max: roundPoints(r.linetest_max) });
    }
    if (r.major_max > 0) {
      sections.push({ section: 'major', score: roundPoints(r.major_points), max: roundPoints(r.major_max) });
    }
    const rule = await this.ruleOf(r.version_id, versions);
    return {
      attempt_id: r.attempt_id,
      rank: r.rank,
      candidate: {
        id: r.candidate_id,
        name: hide ? '' : (r.name ?? ''),
        phone: hide ? '' : maskPhone(r.phone),
        school: hide ? '' : (r.school ?? ''),
        major: hide ? '' : (r.major ?? ''),
      },
      score: roundPoints(r.score),
      max_score: roundPoints(r.max_score),
      sections,
      passed: passedBy(rule, r.score, r.max_score, r.pending > 0),
      risk_count: r.risk_count,
      flagged: r.confirmed > 0,
      open_flags: r.open_flags,
      grading: r.pending > 0 ? 'pending' : 'complete',
      finished_at: r.finished_at,
    };
  }

  /** True when the actor must not see who the candidates are (the blind-marking rule, services/access.ts). */
  blindFor(actor: StaffActor, examId: number): Promise<boolean> {
    return this.deps.access.identityHidden(actor, examId);
  }

  /** One page of the exam's ranking. */
  async ranking(actor: StaffActor, q: ParsedQuery<typeof api.resultsRanking>): Promise<RankingData> {
    await this.deps.access.requireFor(actor, api.resultsRanking, q.exam_id);
    const spec: RankingSpec = { examId: q.exam_id, ...ResultsService.filter(q), sort: q.sort, order: q.order };
    const { rows, total } = await this.repo.ranking(spec, (q.page - 1) * q.page_size, q.page_size);
    const blind = await this.blindFor(actor, q.exam_id);
    const versions = new Map<number, VersionBundle | null>();
    const list: RankingRow[] = [];
    for (const r of rows) list.push(await this.toRow(r, blind, versions));
    // Without a filter the rows matched are the finished attempts: no second count.
    const finished = narrows(spec) ? await this.repo.finishedCount(q.exam_id) : total;
    return { list, total, finished, blind };
  }

  /** The filters of a query or an export, with a range given backwards refused. */
  static filter(q: {
    section?: 'linetest' | 'major' | undefined;
    school?: string | undefined;
    major?: string | undefined;
    score_min?: number | undefined;
    score_max?: number | undefined;
    risk_min?: number | undefined;
    risk_max?: number | undefined;
    flagged?: boolean | undefined;
  }): FilterInput {
    if (q.score_min !== undefined && q.score_max !== undefined && q.score_min > q.score_max) {
      throw fail('validation_error', 'score_max: less than score_min');
    }
    if (q.risk_min !== undefined && q.risk_max !== undefined && q.risk_min > q.risk_max) {
      throw fail('validation_error', 'risk_max: less than risk_min');
    }
    return {
      section: q.section,
      school: q.school || undefined,
      major: q.major || undefined,
      scoreMin: q.score_min,
      scoreMax: q.score_max,
      riskMin: q.risk_min,
      riskMax: q.risk_max,
      flagged: q.flagged,
    };
  }

  /** One finished attempt's report. */
  async report(actor: StaffActor, attemptId: number): Promise<ResultReportData> {
    await this.deps.access.requireFor(actor, api.resultsReport, attemptId);
    const attempt = await this.deps.attempts.byId(attemptId);
    if (!attempt || attempt.preview === 1) throw fail('not_found', `no such attempt ${attemptId}`);
    if (attempt.phase !== ExamPhase.submit) {
      throw fail('conflict', `attempt ${attemptId} has not finished: its report comes once it does`);
    }
    const placed = await this.repo.rankOf(attempt.exam_id, attempt.id);
    if (!placed) throw fail('not_found', `no such attempt ${attemptId}`);
    const versions = new Map<number, VersionBundle | null>();
    const row = await this.toRow(placed.row, await this.blindFor(actor, attempt.exam_id), versions);
    const bundle = await this.deps.attempts.bundleOf(attempt);
    const scores = new Map((await this.repo.scoresOf([attempt.id])).map((s) => [s.question_id, s]));
    const answers = new Map(
      (await new AttemptRepository(this.db).answers(attempt.id)).map((a) => [a.question_id, storedAnswer(a.value)]),
    );
    const time = timePerQuestion(
      await this.repo.navigation(attempt.exam_id, attempt.id),
      attempt.started_at,
      attempt.finished_at,
    );
    const submits = await this.repo.submits(attempt.id);
    const questions: ResultReportData['questions'] = bundle.ordered.map((q, i) => {
      const s = scores.get(q.id);
      const judged = submits.get(q.id);
      const content = (q.body?.content ?? {}) as { stem?: unknown };
      return {
        question_id: q.id,
        section: q.section === 'major' ? 'major' : 'linetest',
        type: q.type,
        order_num: i + 1,
        stem: htmlToText(typeof content.stem === 'string' ? content.stem : '').slice(0, STEM_CHARS),
        answer: answers.get(q.id) ?? null,
        points: s ? s.points : null,
        max: s ? s.max : q.score,
        source: s?.source === 'manual' ? 'grader' : s?.source === 'judge' ? 'judge' : 'auto',
        time_ms: Math.round(time.get(q.id) ?? 0),
        judge: judged ?? null,
      };
    });
    const risks = await this.repo.risks(attempt.id);
    const byRisk = new Map<number, { risk: number; count: number; confirmed: number; dismissed: number }>();
    for (const r of risks) {
      const tally = byRisk.get(r.risk) ?? { risk: r.risk, count: 0, confirmed: 0, dismissed: 0 };
      tally.count += 1;
      if (r.decision === 'confirmed') tally.confirmed += 1;
      if (r.decision === 'dismissed') tally.dismissed += 1;
      byRisk.set(r.risk, tally);
    }
    return {
      exam_id: attempt.exam_id,
      attempt_id: attempt.id,
      candidate: row.candidate,
      started_at: attempt.started_at,
      finished_at: attempt.finished_at,
      finish_reason: attempt.finish_reason,
      score: row.score,
      max_score: row.max_score,
      rank: row.rank,
      ranked: placed.ranked,
      passed: row.passed,
      grading: row.grading,
      sections: row.sections,
      questions,
      dimensions: dimensionsOf(bundle.evaluation, answers),
      integrity: {
        risk_count: risks.length,
        by_risk: [...byRisk.values()].sort((a, b) => b.count - a.count || a.risk - b.risk),
        open: risks.filter((r) => r.decision === null).length,
        flagged: risks.some((r) => r.decision === 'confirmed'),
        warnings: await this.repo.warnings(attempt.id),
        cuts_used: attempt.cuts_used,
        decisions: risks
          .filter((r) => r.decision === 'confirmed' || r.decision === 'dismissed')
          .map((r) => ({
            record_id: r.id,
            risk: r.risk,
            decision: r.decision as 'confirmed' | 'dismissed',
            note: r.decision_note,
            decided_at: r.decided_at,
          })),
      },
    };
  }

  /** The exam's figures for charts. */
  async stats(actor: StaffActor, q: ParsedQuery<typeof api.resultsStats>): Promise<ResultStatsData> {
    await this.deps.access.requireFor(actor, api.resultsStats, q.exam_id);
    const rows = await this.repo.allRanked({ examId: q.exam_id, sort: 'rank', order: 'asc' });
    const versions = new Map<number, VersionBundle | null>();
    const pass = { passed: 0, failed: 0, undecided: 0 };
    for (const r of rows) {
      const passed = passedBy(await this.ruleOf(r.version_id, versions), r.score, r.max_score, r.pending > 0);
      if (passed === true) pass.passed += 1;
      else if (passed === false) pass.failed += 1;
      else pass.undecided += 1;
    }
    const scores = rows.map((r) => r.score).sort((a, b) => a - b);
    const maxScore = rows.reduce((m, r) => Math.max(m, r.max_score), 0);
    const width = maxScore > 0 ? maxScore / q.bins : 1;
    const distribution = Array.from({ length: maxScore > 0 ? q.bins : 0 }, (_, i) => ({
      from: roundPoints(i * width),
      to: roundPoints((i + 1) * width),
      count: 0,
    }));
    for (const s of scores) {
      if (distribution.length === 0) break;
      const i = Math.min(distribution.length - 1, Math.max(0, Math.floor(s / width)));
      distribution[i]!.count += 1;
    }
    const mean = (f: (r: RankedRow) => number) =>
      rows.length === 0 ? 0 : roundPoints(rows.reduce((n, r) => n + f(r), 0) / rows.length);
    const sections: ResultStatsData['sections'] = [];
    const linetestMax = rows.reduce((m, r) => Math.max(m, r.linetest_max), 0);
    const majorMax = rows.reduce((m, r) => Math.max(m, r.major_max), 0);
    if (linetestMax > 0) sections.push({ section: 'linetest', mean: mean((r) => r.linetest), max: linetestMax });
    if (majorMax > 0) sections.push({ section: 'major', mean: mean((r) => r.major_points), max: majorMax });
    return {
      attempts: rows.length,
      mean: rows.length === 0 ? null : mean((r) => r.score),
      median: median(scores),
      top: scores.length === 0 ? null : scores[scores.length - 1]!,
      max_score: roundPoints(maxScore),
      pass,
      pass_rule: await this.hasPassRule(rows, versions),
      distribution,
      sections,
      questions: await this.questionFigures(q.exam_id, versions, rows),
    };
  }

  /** Per question of the versions the finished attempts took: time spent and mean points. */
  private async questionFigures(
    examId: number,
    versions: Map<number, VersionBundle | null>,
    rows: readonly RankedRow[],
  ): Promise<ResultStatsData['questions']> {
    const spans = new Map((await this.repo.spans(examId)).map((s) => [s.id, s]));
    const byAttempt = new Map<number, NavigationEvent[]>();
    for (const e of await this.repo.navigation(examId)) {
      const list = byAttempt.get(e.attempt_id) ?? [];
      list.push(e);
      byAttempt.set(e.attempt_id, list);
    }
    const times = new Map<number, number[]>();
    for (const [attemptId, events] of byAttempt) {
      const span = spans.get(attemptId);
      for (const [questionId, ms] of timePerQuestion(events, span?.started_at ?? null, span?.finished_at ?? null)) {
        if (ms <= 0) continue;
        const list = times.get(questionId) ?? [];
        list.push(ms);
        times.set(questionId, list);
      }
    }
    const means = await this.repo.questionMeans(examId);
    const versionIds = [...new Set(rows.map((r) => r.version_id).filter((v) => v !== null))].sort((a, b) => a - b);
    const out: ResultStatsData['questions'] = [];
    for (const vid of versionIds) {
      if (!versions.has(vid)) versions.set(vid, await this.deps.catalog.version(vid));
      const version = versions.get(vid);
      if (!version) continue;
      let n = 0;
      for (const q of ResultsService.scoredQuestions(version)) {
        // A draw's pool question no finished attempt was given is no question of the paper.
        if (!means.has(q.id)) continue;
        n += 1;
        const spent = (times.get(q.id) ?? []).sort((a, b) => a - b);
        const m = means.get(q.id);
        out.push({
          question_id: q.id,
          section: q.section === 'major' ? 'major' : 'linetest',
          type: q.type,
          order_num: n,
          mean_ms: spent.length === 0 ? 0 : Math.round(spent.reduce((a, b) => a + b, 0) / spent.length),
          median_ms: Math.round(median(spent) ?? 0),
          mean_points: m?.mean === null || m?.mean === undefined ? null : roundPoints(m.mean),
          max: m?.max ?? q.score,
        });
      }
    }
    return out;
  }

  /** A version's scored questions (linetest, then major) in section and question order. */
  static scoredQuestions(version: VersionBundle): CatalogQuestion[] {
    const out: CatalogQuestion[] = [];
    for (const kind of GRADED_SECTIONS) {
      for (const s of version.sections.filter((x) => x.kind === kind)) {
        for (const id of s.question_ids) {
          const q = version.byId.get(id);
          if (q) out.push(q);
        }
      }
    }
    return out;
  }
}
