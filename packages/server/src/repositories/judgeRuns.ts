import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { JudgeRunTable } from '../db/schema.js';

/** A judge run row. */
export type JudgeRunRow = Selectable<JudgeRunTable>;

/** Candidates' runs and submits. */
export class JudgeRunRepository {
  constructor(private readonly db: Db) {}

  /** Records a run just queued. */
  async create(row: Insertable<JudgeRunTable>): Promise<void> {
    await this.db.insertInto('judge_runs').values(row).execute();
  }

  /** The run a client id was recorded as. */
  byClientId(attemptId: number, clientId: string): Promise<JudgeRunRow | undefined> {
    return this.db
      .selectFrom('judge_runs')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
  }

  /** A run by job id, only within the given attempts (a candidate's own). */
  byJob(attemptIds: number[], jobId: string): Promise<JudgeRunRow | undefined> {
    if (attemptIds.length === 0) return Promise.resolve(undefined);
    return this.db
      .selectFrom('judge_runs')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('attempt_id', 'in', attemptIds)
      .executeTakeFirst();
  }

  /** A run by job id (server-side use: no ownership check). */
  byJobId(jobId: string): Promise<JudgeRunRow | undefined> {
    return this.db.selectFrom('judge_runs').selectAll().where('job_id', '=', jobId).executeTakeFirst();
  }

  /** Stores the outcome of a job once (later calls change nothing). */
  async finish(
    jobId: string,
    outcome: { verdict: string; passed: number; result: string; finished_at: number },
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('judge_runs')
      .set(outcome)
      .where('job_id', '=', jobId)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Runs queued before `before` and still unfinished, oldest first (judge_runs_unfinished). */
  unfinished(before: number, limit: number): Promise<JudgeRunRow[]> {
    return this.db
      .selectFrom('judge_runs')
      .selectAll()
      .where('finished_at', 'is', null)
      .where('created_at', '<', before)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** The latest finished submit per question of an attempt. */
  async latestSubmits(attemptId: number): Promise<Map<number, JudgeRunRow>> {
    const rows = await this.db
      .selectFrom('judge_runs')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('mode', '=', 'submit')
      .where('finished_at', 'is not', null)
      .orderBy('id')
      .execute();
    return new Map(rows.map((r) => [r.question_id, r]));
  }

  /** The newest run of a mode (queued, running or finished) of a question in an attempt. */
  latest(attemptId: number, questionId: number, mode: 'run' | 'submit'): Promise<JudgeRunRow | undefined> {
    return this.db
      .selectFrom('judge_runs')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .where('mode', '=', mode)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** Every run and submit of a question in an attempt, newest first. */
  ofQuestion(attemptId: number, questionId: number): Promise<JudgeRunRow[]> {
    return this.db
      .selectFrom('judge_runs')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .orderBy('id', 'desc')
      .limit(50)
      .execute();
  }
}
