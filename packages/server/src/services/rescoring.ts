import { api, ExamPhase, parseQuestion, type GradingKeyData, type ParsedBody } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { JobContext } from '../jobs/types.js';
import type { ServiceLog } from '../log.js';
import { AttemptRepository } from '../repositories/attempts.js';
import { GradingRepository } from '../repositories/grading.js';
import type { AccessService, StaffActor } from './access.js';
import type { AttemptService } from './attempts.js';
import type { AuditService } from './audit.js';
import { parseQuestionIds, type ExamCatalog } from './catalog.js';
import type { JobService } from './jobs.js';
import type { ScoreOutbox } from './webhooks.js';

/** What the `rescore` job is given. */
export interface RescorePayload {
  [key: string]: string | number | null;
  title: string;
  exam_id: number;
  version_id: number;
  question_id: number;
  staff_id: number | null;
}

/** What the `rescore` job answers. */
export interface RescoreResult {
  [key: string]: number;
  /** Finished attempts that hold the question. */
  attempts: number;
  /** Those whose final score changed. */
  changed: number;
}

/** What key corrections and re-scoring need. */
export interface RescoreDeps {
  access: AccessService;
  audit: AuditService;
  attempts: Pick<AttemptService, 'byId' | 'bundleOf' | 'score'>;
  catalog: Pick<ExamCatalog, 'forgetVersion'>;
  jobs: Pick<JobService, 'start'>;
  log: ServiceLog;
  /** Hears every score a re-score may have changed, inside its transaction (webhooks). */
  outbox?: ScoreOutbox;
  actorById: (id: number) => Promise<StaffActor | null>;
}

/**
 * Key corrections: the key (or rubric) of a question of a published version is corrected, and the `rescore` job
 * scores every finished attempt that holds it again in the background.
 */
export class RescoreService {
  private readonly repo: GradingRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: RescoreDeps,
  ) {
    this.repo = new GradingRepository(db);
  }

  /**
   * Corrects the key (or rubric) of a question of one of the exam's published versions, and starts the
   * `rescore` job that re-scores every finished attempt holding it (both audited).
   */
  async changeKey(actor: StaffActor, body: ParsedBody<typeof api.gradingKey>): Promise<GradingKeyData> {
    await this.deps.access.requireFor(actor, api.gradingKey, body.exam_id);
    const q = await this.repo.publishedQuestion(body.question_id);
    if (!q || q.exam_id !== body.exam_id) {
      throw fail('not_found', `no question ${body.question_id} in a published version of exam ${body.exam_id}`);
    }
    const parsed = parseQuestion(q.kind, JSON.parse(q.content), body.key);
    if (!parsed.ok) throw fail('validation_error', `key: ${parsed.problems[0] ?? 'does not fit the question'}`);
    const key = JSON.stringify(parsed.body.key);
    await this.db.transaction().execute(async (trx) => {
      await new GradingRepository(trx).setKey(q.id, q.version_id, key);
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'grading.key',
          { kind: 'exam', id: body.exam_id },
          { question_id: q.id, key: JSON.parse(q.answer_key) as object },
          { question_id: q.id, key: parsed.body.key },
        );
    });
    this.deps.catalog.forgetVersion(q.version_id);
    const jobId = await this.deps.jobs.start(actor, 'rescore', {
      title: `Re-score question ${q.id} of exam ${body.exam_id}`,
      exam_id: body.exam_id,
      version_id: q.version_id,
      question_id: q.id,
      staff_id: actor.id,
    } satisfies RescorePayload);
    return { job_id: jobId };
  }

  /**
   * The `rescore` job: every finished attempt of the version that holds the question is scored again (its
   * per-question rows and final score), one checkpoint each; one audit entry lists the scores that changed.
   */
  async runRescore(ctx: JobContext<RescorePayload>): Promise<RescoreResult> {
    const p = ctx.payload;
    // This process may hold the version from before the correction.
    this.deps.catalog.forgetVersion(p.version_id);
    const finished = await this.repo.finishedOfVersion(p.version_id, ExamPhase.submit);
    const ids = finished
      .filter((a) => {
        const held = parseQuestionIds(a.question_ids);
        return held === null || held.includes(p.question_id);
      })
      .map((a) => a.id);
    const tally = (ctx.cursor as {
      done: number;
      changed: { id: number; before: number | null; after: number }[];
    } | null) ?? {
      done: 0,
      changed: [],
    };
    await ctx.progress(tally.done, ids.length, 'attempts');
    while (tally.done < ids.length) {
      const attempt = (await this.deps.attempts.byId(ids[tally.done]!))!;
      // Read outside the transaction (SQLite has one connection), written inside it with the cursor.
      const scored = await this.deps.attempts.score(attempt, await this.deps.attempts.bundleOf(attempt));
      const changed =
        attempt.score === scored.score
          ? tally.changed
          : [...tally.changed, { id: attempt.id, before: attempt.score, after: scored.score }];
      const next = { done: tally.done + 1, changed };
      await ctx.checkpoint(
        next,
        async (trx) => {
          await new AttemptRepository(trx).setScore(attempt.id, scored.score, scored.max);
          const grading = new GradingRepository(trx);
          await grading.replaceScores(attempt.id, scored.rows);
          await grading.keepTotals(attempt.id);
          await this.deps.outbox?.noteScore(trx, attempt.id);
        },
        { done: next.done, total: ids.length },
      );
      Object.assign(tally, next);
    }
    // Every score the correction changed is on record; a correction that changed none leaves only its own entry.
    if (tally.changed.length > 0) {
      const actor = p.staff_id !== null ? await this.deps.actorById(p.staff_id) : null;
      await this.deps.audit.record(actor, 'grading.rescore', { kind: 'exam', id: p.exam_id }, null, {
        question_id: p.question_id,
        version_id: p.version_id,
        attempts: ids.length,
        changed: tally.changed,
      });
    }
    this.deps.log.info({ exam: p.exam_id, question: p.question_id, attempts: ids.length }, 'attempts re-scored');
    return { attempts: ids.length, changed: tally.changed.length };
  }
}
