/** The bank's editor of indefinite questions (console only; the exam page loads render.ts alone). */
import { IndefiniteEditor } from '../../edit/ChoiceEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'indefinite', Editor: IndefiniteEditor } satisfies KindEdit<'indefinite'>;
