/** The bank's editor of programming_qa questions (console only; the exam page loads render.ts alone). */
import { ProgrammingQaEditor } from '../../edit/QaEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'programming_qa', Editor: ProgrammingQaEditor } satisfies KindEdit<'programming_qa'>;
