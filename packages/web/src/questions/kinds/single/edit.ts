/** The bank's editor of single questions (console only; the exam page loads render.ts alone). */
import { SingleEditor } from '../../edit/ChoiceEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'single', Editor: SingleEditor } satisfies KindEdit<'single'>;
