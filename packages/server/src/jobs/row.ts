import type { JobRow } from '../repositories/jobs.js';
import type { Job, JobState, Json } from './types.js';

/** A job row as the interface's Job. */
export function jobFromRow<K extends string>(row: JobRow): Job<K> {
  return {
    id: row.id,
    kind: row.kind as K,
    payload: JSON.parse(row.payload) as Json,
    owner: { staffId: row.owner_staff_id, teamId: row.team_id },
    state: row.state as JobState,
    progress: { done: row.progress_done, total: row.progress_total, phase: row.progress_phase },
    result: row.result === null ? null : (JSON.parse(row.result) as Json),
    error: row.error_code === null ? null : { code: row.error_code, message: row.error_message ?? '' },
    cancelRequested: row.cancel_requested === 1,
    attempts: row.attempts,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
