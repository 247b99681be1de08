/** The bank's editor of evaluation questions (console only; the exam page loads render.ts alone). */
import { EvaluationEditor } from '../../edit/ChoiceEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'evaluation', Editor: EvaluationEditor } satisfies KindEdit<'evaluation'>;
