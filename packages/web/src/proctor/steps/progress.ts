/** Where the candidate stands in the checks: each step passed, skipped, current or still waiting. */
import type { MonitorStateData } from '@examhall/contract';
import type { ExamStep } from '../../exam/steps.js';
import { STEP_IDS } from '../checks.js';
import type { StepOutcome } from './hooks.js';

/** A step as the list shows it. */
export type StepStatus = 'passed' | 'skipped' | 'current' | 'waiting';

/** The steps' statuses and the index of the current one (-1 when every step is settled). */
export interface Progress {
  statuses: StepStatus[];
  current: number;
}

/**
 * The status of each step: an outcome from this page counts as it is; a skip the server holds counts; a pass
 * the server holds counts only when the step's device (if it has one) is open in this page, since a device
 * passed before a reload must be opened again. The first step not settled is current.
 */
export function checkProgress(
  steps: readonly ExamStep[],
  recorded: MonitorStateData['checks'],
  local: ReadonlyMap<number, StepOutcome>,
  deviceLive: (step: ExamStep['key']) => boolean,
): Progress {
  const settled = steps.map((step): StepOutcome | null => {
    const here = local.get(step.id);
    if (here) return here;
    const result = recorded.find((c) => c.step === STEP_IDS[step.key])?.result;
    if (result === 'skipped' && step.skippable) return 'skipped';
    if (result === 'passed' && deviceLive(step.key)) return 'passed';
    return null;
  });
  const current = settled.findIndex((s) => s === null);
  return { statuses: settled.map((s, i) => s ?? (i === current ? 'current' : 'waiting')), current };
}
