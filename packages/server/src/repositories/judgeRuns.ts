import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { JudgeRunTable } from '../db/schema.js';

/**
 * What the `mode` column holds. A run on the candidate's own input is stored as 'custom' (the input
 * itself is not kept), so that a reload can still label it; the rest of the server sees mode 'run'
 * with `custom_input` set.
 */
type StoredMode = 'run' | 'custom' | 'submit';

/** A judge run: the stored row, its mode as the API names it, and whether a run used custom input. */
export type JudgeRunRow = Omit<Selectable<JudgeRunTable>, 'mode'> & { mode: 'run' | 'submit'; custom_input: boolean };

/** A run just queued, as `create` takes it. */
export type NewJudgeRun = Omit<Insertable<JudgeRunTable>, 'mode'> & { mode: 'run' | 'submit'; custom_input: boolean };

function storedMode(mode: 'run' | 'submit', customInput: boolean): StoredMode {
  return mode === 'run' && customInput ? 'custom' : mode;
}

function toRun(row: Selectable<JudgeRunTable>): JudgeRunRow {
  return { ...row, mode: row.mode === 'submit' ? 'submit' : 'run', custom_input: row.mode === 'custom' };
}

const toRunOrUndefined = (row: Selectable<JudgeRunTable> | undefined) => (row ? toRun(row) : undefined);

/** Candidates' runs and submits. */
export class JudgeRunRepository {
  constructor(private readonly db: Db) {}

  /** Records a run just queued. */
  async create({ custom_input, ...row }: NewJudgeRun): Promise<void> {
    await this.db
      .insertInto('judge_runs')
      .values({ ...row, mode: storedMode(row.mode, custom_input) })
      .execute();
  }

  /** The run a client id was recorded as. */
  async byClientId(attemptId: number, clientId: string): Promise<JudgeRunRow | undefined> {
    const row = await this.db
      .selectFrom('judge_runs')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return toRunOrUndefined(row);
  }

  /** A run by job id, only within the given attempts (a candidate's own). */
  async byJob(attemptIds: number[], jobId: string): Promise<JudgeRunRow | undefined> {
    if (attemptIds.length === 0) return undefined;
    const row = await this.db
      .selectFrom('judge_runs')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('attempt_id', 'in', attemptIds)
      .executeTakeFirst();
    return toRunOrUndefined(row);
  }

  /** A run by job id (server-side use: no ownership check). */
  async byJobId(jobId: string): Promise<JudgeRunRow | undefined> {
    return toRunOrUndefined(
      await this.db.selectFrom('judge_runs').selectAll().where('job_id', '=', jobId).executeTakeFirst(),
    );
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
    return new Map(rows.map((r) => [r.question_id, toRun(r)]));
  }

  /**
   * The newest job of a mode (queued, running or finished) of a question in an attempt; for 'run', on
   * the samples or on the candidate's own input.
   */
  async latest(attemptId: number, questionId: number, mode: 'run' | 'submit'): Promise<JudgeRunRow | undefined> {
    const modes: StoredMode[] = mode === 'run' ? ['run', 'custom'] : ['submit'];
    const row = await this.db
      .selectFrom('judge_runs')
      .selectAll()
      .where('attempt_id', '=', attemptId)
      .where('question_id', '=', questionId)
      .where('mode', 'in', modes)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return toRunOrUndefined(row);
  }
}
