import {
  api,
  itemResponses,
  type KindResponses,
  type ItemAnalysisData,
  type ItemAnalysisItem,
  type ItemAnalysisSort,
  type OptionShare,
  type ParsedQuery,
  type QuestionBody,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { AnalysisRepository } from '../repositories/analysis.js';
import { ExamRepository } from '../repositories/exams.js';
import type { Json, JobContext } from '../jobs/types.js';
import type { AccessService, StaffActor } from './access.js';
import type { CatalogQuestion, ExamCatalog, VersionBundle } from './catalog.js';
import type { JobService } from './jobs.js';
import { analyseItems, type AnalysedAttempt, type AnalysedItem, type ItemResponse } from './itemAnalysis.js';
import type { ServiceLog } from '../log.js';
import { htmlToText } from './richText.js';
import { storedAnswer } from './scoring.js';

/** Characters of the stem a row shows. */
const TITLE_CHARS = 80;

/** The stem's first characters, "…" saying when there is more. */
function shortTitle(text: string): string {
  return text.length > TITLE_CHARS ? `${text.slice(0, TITLE_CHARS - 1)}…` : text;
}

/** What the analysis needs from the other services. */
export interface AnalysisDeps {
  access: AccessService;
  /** Where computations are queued (the worker runs them). */
  jobs: Pick<JobService, 'startOnce'>;
  catalog: ExamCatalog;
  clock: () => number;
  log: ServiceLog;
}

/** The options of a question and which of them the key holds (its kind's `responses`); null for other kinds. */
function choiceOptions(body: QuestionBody | null): KindResponses | null {
  return body ? itemResponses(body) : null;
}

/** The scored questions of a version (the evaluation section is not scored) in exam order. */
function scoredQuestions(version: VersionBundle): CatalogQuestion[] {
  return [...version.sections]
    .filter((s) => s.kind !== 'evaluation')
    .sort((a, b) => a.order_num - b.order_num || a.id - b.id)
    .flatMap((s) =>
      s.question_ids.map((id) => version.byId.get(id)!).sort((a, b) => a.order_num - b.order_num || a.id - b.id),
    );
}

/** Orders questions by a figure, nulls last in either direction, ties by number. */
function byColumn(sort: ItemAnalysisSort, order: 'asc' | 'desc') {
  const sign = order === 'asc' ? 1 : -1;
  return (a: ItemAnalysisItem, b: ItemAnalysisItem): number => {
    const x = a[sort];
    const y = b[sort];
    if (x === null || y === null) return x === y ? a.number - b.number : x === null ? 1 : -1;
    return sign * (x - y) || a.number - b.number;
  };
}

/** What an `item_analysis` job reads. */
export interface ItemAnalysisPayload {
  [key: string]: Json;
  title: string;
  exam_id: number;
  version_id: number;
}

/** What an `item_analysis` job answers. */
export interface ItemAnalysisResult {
  [key: string]: Json;
  version_id: number;
  attempts: number;
  flagged: number;
}

/** A version's figures as kept. */
type Figures = Pick<ItemAnalysisData, 'exam' | 'items'>;

/**
 * Item analysis of an exam's version over its finished attempts: the figures of `itemAnalysis.ts` for each scored
 * question and the exam, option shares of choice questions, and the flags it records for the bank questions'
 * authors (negative discrimination), replaced each time the version is analysed.
 *
 * The figures are kept, not computed at each view: computing reads every score of the version (2.7 s of CPU at
 * 50,000 attempts), so it is an `item_analysis` job on the worker. A view answers the kept figures, and queues a
 * job when none are kept or a score of the exam was written since they were (`attempts.score_writes`).
 */
export class AnalysisService {
  private readonly repo: AnalysisRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: AnalysisDeps,
  ) {
    this.repo = new AnalysisRepository(db);
  }

  /** The item analysis of one version of the exam (by default the one published now). */
  async items(actor: StaffActor, q: ParsedQuery<typeof api.itemAnalysis>): Promise<ItemAnalysisData> {
    const [owner] = await this.deps.access.requireFor(actor, api.itemAnalysis, q.exam_id);
    const exam = await new ExamRepository(this.db).byId(q.exam_id);
    if (!exam) throw fail('not_found', `no such exam ${q.exam_id}`);
    const versions = await this.repo.versions(q.exam_id);
    const versionId = q.version_id ?? exam.published_version_id ?? null;
    const empty: ItemAnalysisData = {
      exam_id: exam.id,
      name: exam.name,
      version_id: null,
      versions,
      exam: { attempts: 0, questions: 0, mean_total: null, sd_total: null, alpha: null, alpha_attempts: 0 },
      items: [],
      total: 0,
      flagged: 0,
      computed_at: null,
      job_id: null,
    };
    if (versionId === null) return empty;
    if (!versions.some((v) => v.id === versionId)) {
      throw fail('not_found', `no published version ${versionId} of exam ${exam.id}`);
    }
    const kept = await this.repo.kept(versionId);
    const behind = !kept || (await this.repo.scoreBasis(exam.id)) !== kept.basis;
    const jobId = behind
      ? await this.deps.jobs.startOnce(
          actor,
          'item_analysis',
          { title: exam.name, exam_id: exam.id, version_id: versionId },
          owner?.teamId ?? null,
          (other) => other.version_id === versionId,
        )
      : null;
    if (!kept) return { ...empty, version_id: versionId, job_id: jobId };
    const data = JSON.parse(kept.data) as Figures;
    const matching = data.items
      .filter((i) => (!q.flagged || i.flagged) && (q.section === undefined || i.section === q.section))
      .sort(byColumn(q.sort, q.order));
    return {
      ...empty,
      version_id: versionId,
      exam: data.exam,
      items: matching.slice((q.page - 1) * q.page_size, q.page * q.page_size),
      total: matching.length,
      flagged: data.items.filter((i) => i.flagged).length,
      computed_at: Number(kept.computed_at),
      job_id: jobId,
    };
  }

  /**
   * The job: computes a version's figures from its scores as they stand and keeps them, with its flags, in one
   * transaction. The state of the scores is read first, so a score written while it computes makes the next view
   * queue another.
   */
  async run(ctx: JobContext<ItemAnalysisPayload>): Promise<ItemAnalysisResult> {
    const { version_id: versionId } = ctx.payload;
    await ctx.progress(0, 2, 'read');
    const version = await this.deps.catalog.version(versionId);
    if (!version) throw fail('not_found', `no such version ${versionId}`);
    const basis = await this.repo.scoreBasis(version.exam_id);
    const now = this.deps.clock();
    const t = performance.now();
    const data = await this.analyse(version);
    await ctx.progress(1, 2, 'compute');
    await this.keep(version, basis, now, data);
    this.deps.log.info(
      {
        exam: version.exam_id,
        version: versionId,
        attempts: data.exam.attempts,
        ms: Math.round(performance.now() - t),
      },
      'item analysis computed',
    );
    await ctx.progress(2, 2, 'compute');
    return { version_id: versionId, attempts: data.exam.attempts, flagged: data.items.filter((i) => i.flagged).length };
  }

  /** Keeps a version's figures and records its flags (those of the analysis before are replaced). */
  async keep(version: VersionBundle, basis: string, now: number, data: Figures): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const repo = new AnalysisRepository(trx);
      await repo.replaceFlags(
        version.id,
        data.items
          .filter((i) => i.flagged)
          .map((i) => ({
            question_id: i.question_id,
            exam_id: version.exam_id,
            version_id: version.id,
            bank_question_id: i.bank_question_id,
            item_rest: i.item_rest,
            upper_lower: i.upper_lower,
            n: i.n,
            flagged_at: now,
          })),
      );
      await repo.keep({
        version_id: version.id,
        exam_id: version.exam_id,
        basis,
        computed_at: now,
        data: JSON.stringify(data),
      });
    });
  }

  /** The figures of a version over its finished attempts as their scores stand. */
  async analyse(version: VersionBundle): Promise<Figures> {
    const questions = scoredQuestions(version);
    const position = new Map(questions.map((question, i) => [question.id, i]));
    const items: AnalysedItem[] = questions.map((question) => ({ id: question.id, max: question.score }));
    const pending = questions.map(() => 0);
    const attempts: AnalysedAttempt[] = [];
    for (const row of await this.repo.scoresByAttempt(version.id)) {
      const responses: (ItemResponse | null)[] = new Array<ItemResponse | null>(questions.length).fill(null);
      for (const pair of row.scores.split(',')) {
        const colon = pair.indexOf(':');
        const j = position.get(Number(pair.slice(0, colon)));
        if (j === undefined) continue;
        const points = pair.slice(colon + 1);
        // An answer still waiting for a grader has no points yet: it is left out, like a question not given.
        if (points === '-') pending[j]! += 1;
        else responses[j] = { points: Number(points) };
      }
      attempts.push({ id: row.attempt_id, responses });
    }
    const { items: figures, exam } = analyseItems(items, attempts);
    const choices = questions.map((question) => choiceOptions(question.body));
    const shares = await this.optionShares(
      version.id,
      questions,
      choices,
      figures.map((f) => f.n),
    );
    const out: ItemAnalysisItem[] = questions.map((question, j) => {
      const f = figures[j]!;
      const content = (question.body?.content ?? {}) as { stem?: string };
      return {
        question_id: question.id,
        bank_question_id: question.bank_question_id,
        number: j + 1,
        kind: question.kind ?? 'qa',
        type: question.type,
        section: question.section === 'major' ? 'major' : 'linetest',
        title: shortTitle(htmlToText(content.stem ?? '')),
        max: question.score,
        n: f.n,
        pending: pending[j]!,
        mean: f.mean,
        facility: f.facility,
        sd: f.sd,
        item_rest: f.itemRest,
        upper_lower: f.upperLower,
        option_shares: shares[j]!,
        flagged: f.flagged,
      };
    });
    return {
      exam: {
        attempts: exam.n,
        questions: exam.k,
        mean_total: exam.meanTotal,
        sd_total: exam.sdTotal,
        alpha: exam.alpha,
        alpha_attempts: exam.alphaN,
      },
      items: out,
    };
  }

  /**
   * Per choice question the share of its `n` attempts that chose each option (several picks each count), then
   * no answer: counted by the database per distinct stored answer, so only a few rows cross.
   */
  private async optionShares(
    versionId: number,
    questions: readonly CatalogQuestion[],
    choices: readonly (KindResponses | null)[],
    n: readonly number[],
  ): Promise<(OptionShare[] | null)[]> {
    const ids = questions.filter((_, j) => choices[j]).map((q) => q.id);
    const counts = new Map<number, Map<string, number>>();
    const answered = new Map<number, number>();
    for (const r of await this.repo.answerCounts(versionId, ids)) {
      const value = storedAnswer(r.value);
      const picked = value?.kind === 'choice' ? [value.option] : value?.kind === 'multi' ? value.options : [];
      if (picked.length === 0) continue;
      answered.set(r.question_id, (answered.get(r.question_id) ?? 0) + r.n);
      const per = counts.get(r.question_id) ?? new Map<string, number>();
      for (const o of picked) per.set(o, (per.get(o) ?? 0) + r.n);
      counts.set(r.question_id, per);
    }
    return questions.map((question, j) => {
      const choice = choices[j];
      const total = n[j]!;
      if (!choice || total === 0) return null;
      const per = counts.get(question.id);
      return [
        ...choice.ids.map((option) => ({
          option,
          share: (per?.get(option) ?? 0) / total,
          key: choice.key.has(option),
        })),
        { option: '', share: Math.max(0, total - (answered.get(question.id) ?? 0)) / total, key: false },
      ];
    });
  }

  /** How many of the author's bank questions an analysis flagged (the console home). */
  flaggedOfAuthor(staffId: number): Promise<number> {
    return this.repo.flaggedOfAuthor(staffId);
  }
}
