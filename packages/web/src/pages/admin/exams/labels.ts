/** Names of exam modes and states, shared by the list and the editor. */
import { ExamMode, type ExamStatus } from '@examhall/contract';
import type { MessageKey } from '../../../i18n/index.js';

/** The dictionary key of an exam mode's name. */
export function modeKey(mode: number): MessageKey {
  if (mode === ExamMode.simulate) return 'exams.mode.simulate';
  if (mode === ExamMode.longTime) return 'exams.mode.longTime';
  return 'exams.mode.exam';
}

/** Colour of an exam state's tag. */
export const STATUS_COLOR: Record<ExamStatus, string> = { draft: 'default', published: 'green', archived: 'purple' };
