import { api, ExamPhase, type ParsedBody, type ReopenData } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { AttemptRepository } from '../repositories/attempts.js';
import { GradingRepository } from '../repositories/grading.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';

/** What reopening needs. */
export interface ReopenDeps {
  access: AccessService;
  audit: AuditService;
  /** Hears the attempt back in the exam phase. */
  notifier: Pick<ProctorNotifier, 'announce'>;
  clock: () => number;
}

/** Reopening a finished attempt for its candidate (staff), with the audit log in its transaction. */
export class ReopenService {
  constructor(
    private readonly db: Db,
    private readonly deps: ReopenDeps,
  ) {}

  /**
   * POST /admin/attempt/reopen: a finished attempt goes back to the exam phase with its answers, ending
   * `minutes` from now, or (without minutes) after the time it still had when it finished. Only the
   * candidate's latest attempt, one that had entered the exam, and never a preview. The overdue sweeper
   * finishes it again once the new end passes.
   */
  async reopen(actor: StaffActor, body: ParsedBody<typeof api.scheduleReopen>): Promise<ReopenData> {
    await this.deps.access.requireFor(actor, api.scheduleReopen, body.attempt_id);
    const attempts = new AttemptRepository(this.db);
    const a = await attempts.byId(body.attempt_id);
    if (!a) throw fail('not_found', `no such attempt ${body.attempt_id}`);
    if (a.phase !== ExamPhase.submit) throw fail('attempt_not_reopenable', 'the attempt has not finished');
    if (a.preview === 1) throw fail('attempt_not_reopenable', 'a preview attempt counts nowhere');
    if (a.started_at === null) throw fail('attempt_not_reopenable', 'the attempt never entered the exam');
    const latest = await attempts.latest(a.candidate_id, a.exam_id);
    if (latest?.id !== a.id) throw fail('attempt_not_reopenable', 'the candidate has a later attempt');
    const now = this.deps.clock();
    const left = a.end_at !== null && a.finished_at !== null ? Number(a.end_at) - Number(a.finished_at) : 0;
    if (body.minutes === undefined && left <= 0) {
      throw fail('validation_error', 'minutes: the attempt had no time left when it finished; say how many to give');
    }
    const endAt = now + (body.minutes !== undefined ? body.minutes * 60_000 : left);
    await this.db.transaction().execute(async (trx) => {
      const moved = await new AttemptRepository(trx).updateInPhase(a.id, ExamPhase.submit, {
        phase: ExamPhase.exam,
        end_at: endAt,
        finished_at: null,
        finish_reason: null,
        finish_note: '',
        score: null,
        max_score: null,
      });
      if (!moved) throw fail('conflict', 'the attempt changed meanwhile; try again');
      // Its score is gone until it finishes again, and the kept ranking key with it.
      await new GradingRepository(trx).keepTotals(a.id);
      await this.deps.audit.with(trx).record(
        actor,
        'attempt.reopen',
        { kind: 'attempt', id: a.id },
        {
          phase: a.phase,
          end_at: a.end_at,
          finished_at: a.finished_at,
          finish_reason: a.finish_reason,
          score: a.score,
        },
        { phase: ExamPhase.exam, end_at: endAt, minutes: body.minutes ?? null, reason: body.reason },
        body.reason,
      );
    });
    this.deps.notifier.announce({ type: 'attempt', attemptId: a.id });
    return { attempt_id: a.id, end_at: endAt };
  }
}
