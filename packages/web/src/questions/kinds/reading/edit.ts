/** The bank's editor of reading questions (console only; the exam page loads render.ts alone). */
import { ReadingEditor } from '../../edit/CompoundEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'reading', Editor: ReadingEditor } satisfies KindEdit<'reading'>;
