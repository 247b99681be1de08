/** The bank's editor of qa questions (console only; the exam page loads render.ts alone). */
import { QaEditor } from '../../edit/QaEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'qa', Editor: QaEditor } satisfies KindEdit<'qa'>;
