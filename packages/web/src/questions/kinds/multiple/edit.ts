/** The bank's editor of multiple questions (console only; the exam page loads render.ts alone). */
import { MultipleEditor } from '../../edit/ChoiceEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'multiple', Editor: MultipleEditor } satisfies KindEdit<'multiple'>;
