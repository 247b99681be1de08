import {
  api,
  CodeAnswer,
  SIMILARITY_FLAG_SCORE,
  SIMILARITY_STORED_SCORE,
  type JobStartedData,
  type LanguageId,
  type ParsedBody,
  type ParsedQuery,
  type SimilarityGroup,
  type SimilarityPairDetail,
  type SimilarityPairsData,
  type SimilarityPairView,
  type SimilarityQuestionsData,
  type SimilarityStatus,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { inTurns } from '../db/turns.js';
import { fail } from '../errors.js';
import type { JobContext, Json } from '../jobs/types.js';
import {
  SimilarityRepository,
  type NewPair,
  type SimilarityPairRow,
  type SimilarityQuestionRow,
} from '../repositories/similarity.js';
import {
  compareSources,
  fingerprint,
  fragments,
  groups,
  isSimilarityLanguage,
  starterHashes,
} from '../similarity/index.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { JobService } from './jobs.js';
import { maskPhone } from './proctor.js';
import { htmlToText } from './richText.js';

/** What a `code_similarity` job reads. */
export interface SimilarityPayload {
  [key: string]: Json;
  title: string;
  exam_id: number;
  /** The question's first copy in the exam (the id its pairs are stored under). */
  question_id: number;
}

/** What a `code_similarity` job answers. */
export interface SimilarityResult {
  [key: string]: Json;
  submissions: number;
  pairs: number;
  flagged: number;
  groups: number;
}

/** A stored run's rarity per language: submissions compared, and how many hold each shared fingerprint. */
type StoredRarity = Partial<Record<string, { n: number; holders: [number, number][] }>>;

/** A stored run's group: attempt ids, the strong pairs among them and the best score. */
interface StoredGroup {
  attempt_ids: number[];
  pairs: number;
  max_score: number;
}

/** The programming question's copies in one exam: every version's copy of the same bank question. */
interface QuestionFamily {
  /** The first copy: pairs and runs are stored under it. */
  id: number;
  /** The newest copy, whose statement the page shows. */
  latest: SimilarityQuestionRow;
  ids: number[];
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
/** Pairs removed a statement: a delete by id is cheaper a row than an upsert. */
const STALE_BATCH = 500;

/** The candidate's code of a stored answer, or null when it is not code. */
function codeOf(value: string | null): { language: LanguageId; code: string } | null {
  if (value === null) return null;
  try {
    const parsed = CodeAnswer.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The question's statement and starter code per language, read leniently from its stored content. */
function contentOf(row: SimilarityQuestionRow): { stem: string; starter: Partial<Record<string, string>> } {
  try {
    const c = JSON.parse(row.content) as { stem?: unknown; starter?: unknown };
    return {
      stem: typeof c.stem === 'string' ? c.stem : '',
      starter: c.starter && typeof c.starter === 'object' ? (c.starter as Record<string, string>) : {},
    };
  } catch {
    return { stem: '', starter: {} };
  }
}

/**
 * Code similarity per programming question: a job compares every candidate's final code (the answer stored
 * last) with every other's in the same language, less the starter code, and stores the pairs scoring at least
 * `SIMILARITY_STORED_SCORE` with the groups; graders list them, look at one side by side with its matched
 * fragments, and confirm or dismiss the flag. Nothing here changes a score or an attempt.
 */
export class SimilarityService {
  private readonly repo: SimilarityRepository;

  constructor(
    private readonly db: Db,
    private readonly access: AccessService,
    private readonly audit: AuditService,
    private readonly jobs: JobService,
    private readonly clock: () => number,
  ) {
    this.repo = new SimilarityRepository(db);
  }

  /** The exam's programming questions, one per bank question across versions. */
  private async families(examId: number): Promise<QuestionFamily[]> {
    const byKey = new Map<string, QuestionFamily>();
    for (const row of await this.repo.questions(examId)) {
      const key = row.bank_question_id === null ? `q${row.id}` : `b${row.bank_question_id}`;
      const family = byKey.get(key);
      if (family) {
        family.ids.push(row.id);
        family.latest = row;
      } else byKey.set(key, { id: row.id, latest: row, ids: [row.id] });
    }
    return [...byKey.values()];
  }

  /** The family a question id of the exam belongs to; `not_found` for any other id. */
  private async family(examId: number, questionId: number): Promise<QuestionFamily> {
    const found = (await this.families(examId)).find((f) => f.ids.includes(questionId));
    if (!found) throw fail('not_found', `no such programming question ${questionId} in exam ${examId}`);
    return found;
  }

  async questions(actor: StaffActor, examId: number): Promise<SimilarityQuestionsData> {
    await this.access.requireFor(actor, api.similarityQuestions, examId);
    const families = await this.families(examId);
    const counts = await this.repo.answerCounts(families.flatMap((f) => f.ids));
    const runs = new Map((await this.repo.runs(families.map((f) => f.id))).map((r) => [r.question_id, r]));
    return {
      list: families.map((f) => ({
        question_id: f.id,
        title: htmlToText(contentOf(f.latest).stem).slice(0, 120),
        submissions: f.ids.reduce((s, id) => s + (counts.get(id) ?? 0), 0),
        computed_at: runs.get(f.id)?.computed_at ?? null,
      })),
    };
  }

  /** Queues the comparison of one question's final code; answers the job to follow. */
  async start(actor: StaffActor, body: ParsedBody<typeof api.similarityRun>): Promise<JobStartedData> {
    const [owner] = await this.access.requireFor(actor, api.similarityRun, body.exam_id);
    const family = await this.family(body.exam_id, body.question_id);
    const title = htmlToText(contentOf(family.latest).stem).slice(0, 80) || `question ${family.id}`;
    const payload: SimilarityPayload = { title, exam_id: body.exam_id, question_id: family.id };
    const jobId = await this.jobs.start(actor, 'code_similarity', payload, owner?.teamId ?? null);
    await this.audit.record(actor, 'similarity.run', { kind: 'exam', id: body.exam_id }, null, {
      question_id: family.id,
      job_id: jobId,
    });
    return { job_id: jobId };
  }

  /**
   * The job: reads the final code, compares it per language, and stores the pairs in batches and then the run
   * with its groups in one checkpoint (a resumed job that committed answers what it stored; one that had not
   * computes again and overwrites what it wrote).
   */
  async run(ctx: JobContext<SimilarityPayload>): Promise<SimilarityResult> {
    if (ctx.cursor !== null) return ctx.cursor as SimilarityResult;
    const p = ctx.payload;
    await ctx.progress(0, 2, 'read');
    const family = await this.family(p.exam_id, p.question_id);
    const starter = contentOf(family.latest).starter;
    const byLanguage = new Map<LanguageId, { attempt: number; code: string }[]>();
    let submissions = 0;
    for (const row of await this.repo.finalCode(p.exam_id, family.ids)) {
      const answer = codeOf(row.value);
      if (!answer || answer.code.trim() === '') continue;
      submissions++;
      const list = byLanguage.get(answer.language) ?? [];
      list.push({ attempt: row.attempt_id, code: answer.code });
      byLanguage.set(answer.language, list);
    }
    await ctx.progress(1, 2, 'compare');
    const found: NewPair[] = [];
    const stored: StoredGroup[] = [];
    const rarity: StoredRarity = {};
    for (const [language, subs] of byLanguage) {
      const compared = compareSources(
        subs.map((s) => s.code),
        language,
        starter[language],
        SIMILARITY_STORED_SCORE,
      );
      const { pairs } = compared;
      rarity[language] = { n: subs.length, holders: [...compared.rarity] };
      for (const pair of pairs) {
        if (pair.score < SIMILARITY_STORED_SCORE) break;
        found.push({
          attempt_a: subs[pair.a]!.attempt,
          attempt_b: subs[pair.b]!.attempt,
          language,
          score: round(pair.score),
          share_a: round(pair.share_a),
          share_b: round(pair.share_b),
          matched: pair.matched,
        });
      }
      for (const g of groups(pairs, SIMILARITY_FLAG_SCORE)) {
        stored.push({
          attempt_ids: g.members.map((m) => subs[m]!.attempt),
          pairs: g.pairs,
          max_score: round(g.max_score),
        });
      }
    }
    stored.sort((x, y) => y.attempt_ids.length - x.attempt_ids.length);
    const result: SimilarityResult = {
      submissions,
      pairs: found.length,
      flagged: found.filter((f) => f.score >= SIMILARITY_FLAG_SCORE).length,
      groups: stored.length,
    };
    // The pairs go in short statements with pauses (a thousand submissions can give 100,000 pairs, seconds of the
    // one writer at the worker's low priority); the run's row, which the page reads first, comes last. Open pairs
    // this run did not find again leave after the new ones are in, so a page read meanwhile shows old or new scores.
    const keep = new Set(found.map((f) => `${f.attempt_a}:${f.attempt_b}`));
    const gone = (await this.repo.openPairs(family.id))
      .filter((e) => !keep.has(`${e.attempt_a}:${e.attempt_b}`))
      .map((e) => e.id);
    const run = { questionId: family.id, examId: p.exam_id, at: this.clock() };
    await inTurns(found, (batch) => this.repo.upsertPairs(run, batch));
    await inTurns(gone, (ids) => this.repo.dropOpen(ids), STALE_BATCH);
    await ctx.checkpoint(
      result,
      (trx) =>
        this.repo.storeRun(trx, {
          ...run,
          jobId: ctx.jobId,
          submissions,
          groups: JSON.stringify(stored),
          rarity: JSON.stringify(rarity),
        }),
      { done: 2, total: 2 },
    );
    return result;
  }

  /** One page of a question's pairs, with the last run and its groups. */
  async pairs(actor: StaffActor, q: ParsedQuery<typeof api.similarityPairs>): Promise<SimilarityPairsData> {
    await this.access.requireFor(actor, api.similarityPairs, q.exam_id);
    const hide = await this.access.identityHidden(actor, q.exam_id);
    const family = await this.family(q.exam_id, q.question_id);
    const run = await this.repo.run(family.id);
    const { rows, total } = await this.repo.pairs({
      questionId: family.id,
      status: q.status,
      minScore: q.min_score,
      sort: q.sort,
      order: q.order,
      offset: (q.page - 1) * q.page_size,
      limit: q.page_size,
    });
    let groupViews: SimilarityGroup[] = [];
    if (run) {
      const stored = JSON.parse(run.groups) as StoredGroup[];
      const people = await this.repo.people(stored.flatMap((g) => g.attempt_ids));
      groupViews = stored.map((g) => ({
        members: g.attempt_ids.map((id) =>
          hide ? side(id, null, '') : side(id, people.get(id)?.name ?? null, people.get(id)?.phone ?? ''),
        ),
        pairs: g.pairs,
        max_score: g.max_score,
      }));
    }
    return {
      run: run
        ? { submissions: run.submissions, computed_at: run.computed_at, job_id: run.job_id, groups: groupViews }
        : null,
      list: rows.map((r) => pairView(r, hide)),
      total,
    };
  }

  /** A pair of the exam, or `not_found`. */
  private async pairOf(examId: number, pairId: number): Promise<SimilarityPairRow> {
    const row = await this.repo.pair(pairId);
    if (!row || row.exam_id !== examId) throw fail('not_found', `no such pair ${pairId} in exam ${examId}`);
    return row;
  }

  /**
   * One pair side by side: both candidates' code as stored now, and the fragments alike in both, rarest first among
   * the question's submissions as the last run counted them.
   */
  async pair(actor: StaffActor, q: ParsedQuery<typeof api.similarityPair>): Promise<SimilarityPairDetail> {
    await this.access.requireFor(actor, api.similarityPair, q.exam_id);
    const hide = await this.access.identityHidden(actor, q.exam_id);
    const row = await this.pairOf(q.exam_id, q.pair_id);
    const family = await this.family(q.exam_id, row.question_id);
    const a = codeOf(await this.repo.answerOf(row.attempt_a, family.ids));
    const b = codeOf(await this.repo.answerOf(row.attempt_b, family.ids));
    const language = isSimilarityLanguage(row.language) ? row.language : null;
    let found: SimilarityPairDetail['fragments'] = [];
    if (a && b && language && a.language === language && b.language === language) {
      const skip = starterHashes(contentOf(family.latest).starter[language], language);
      const run = await this.repo.run(family.id);
      const holders = new Map(run ? ((JSON.parse(run.rarity) as StoredRarity)[language]?.holders ?? []) : []);
      const [fa, fb] = [fingerprint(a.code, language, skip), fingerprint(b.code, language, skip)];
      found = fragments(fa, fb, holders.size > 0 ? holders : undefined);
    }
    return { pair: pairView(row, hide), code_a: a?.code ?? '', code_b: b?.code ?? '', fragments: found };
  }

  /** A grader's decision on a pair (confirmed, dismissed, or open again), audited with before and after. */
  async decide(actor: StaffActor, body: ParsedBody<typeof api.similarityDecide>): Promise<SimilarityPairView> {
    await this.access.requireFor(actor, api.similarityDecide, body.exam_id);
    const before = await this.pairOf(body.exam_id, body.pair_id);
    const status: SimilarityStatus = body.status;
    const open = status === 'open';
    await this.db.transaction().execute(async (trx) => {
      await this.repo.decide(trx, before.id, {
        status,
        note: body.note,
        decidedBy: open ? null : actor.id,
        at: open ? null : this.clock(),
      });
      await this.audit
        .with(trx)
        .record(
          actor,
          'similarity.decide',
          { kind: 'similarity_pair', id: before.id },
          { status: before.status, note: before.note, score: before.score },
          { status, note: body.note, score: before.score },
        );
    });
    return pairView((await this.repo.pair(before.id))!, await this.access.identityHidden(actor, body.exam_id));
  }
}

function side(attemptId: number, name: string | null, phone: string) {
  return { attempt_id: attemptId, name: name ?? '', phone: maskPhone(phone) };
}

/** A pair as the console shows it; `hide` leaves out who the two candidates are (blind marking). */
function pairView(r: SimilarityPairRow, hide = false): SimilarityPairView {
  return {
    id: r.id,
    question_id: r.question_id,
    language: isSimilarityLanguage(r.language) ? r.language : 'plaintext',
    a: hide ? side(r.attempt_a, null, '') : side(r.attempt_a, r.name_a, r.phone_a),
    b: hide ? side(r.attempt_b, null, '') : side(r.attempt_b, r.name_b, r.phone_b),
    score: r.score,
    share_a: r.share_a,
    share_b: r.share_b,
    status: (['open', 'confirmed', 'dismissed'] as const).find((s) => s === r.status) ?? 'open',
    note: r.note,
    decided_by: r.decider ?? '',
    decided_at: r.decided_at,
  };
}
