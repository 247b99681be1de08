/** The bank's editor of true_false questions (console only; the exam page loads render.ts alone). */
import { TrueFalseEditor } from '../../edit/ChoiceEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'true_false', Editor: TrueFalseEditor } satisfies KindEdit<'true_false'>;
