/** The bank's editor of programming questions (console only; the exam page loads render.ts alone). */
import { ProgrammingEditor } from '../../edit/ProgrammingEditor.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'programming', Editor: ProgrammingEditor } satisfies KindEdit<'programming'>;
