import { MONITOR_STEPS, type ExamDetail } from '@examhall/contract';

/** One check before the exam, as this exam sets it. */
export interface ExamStep {
  id: number;
  key: (typeof MONITOR_STEPS)[number]['key'];
  skippable: boolean;
}

/** The exam's checks in order: the contract's list without the closed ones; the pledge is never skippable. */
export function examSteps(detail: ExamDetail): ExamStep[] {
  return MONITOR_STEPS.filter((s) => s.closeFlag === null || detail[s.closeFlag] !== 1).map((s) => ({
    id: s.id,
    key: s.key,
    skippable: s.skipFlag !== null && detail[s.skipFlag] === 1,
  }));
}
