import type { JudgeData } from '@examhall/contract';
import type { JobStatus } from './types.js';

/**
 * Turns a job status into the contract's JudgeData. `showOutput` false strips outputs (hidden
 * cases) and staff notes, so nothing about hidden cases reaches a browser through this call.
 */
export function toJudgeData(status: JobStatus, showOutput: boolean): JudgeData {
  const cases = status.cases.map(({ index, verdict, time_ms, memory_kb, output }) => ({
    index,
    verdict,
    time_ms,
    memory_kb,
    ...(showOutput && output !== undefined ? { output } : {}),
  }));
  const state = status.state === 'failed' ? 'done' : status.state;
  const verdict = status.state === 'failed' ? 'SE' : (status.result?.verdict ?? null);
  return {
    job_id: status.id,
    state,
    verdict,
    cases,
    total: status.total,
    ...(status.result?.compileOutput !== undefined ? { compile_output: status.result.compileOutput } : {}),
  };
}
