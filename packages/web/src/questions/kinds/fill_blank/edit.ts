/** The bank's editor of fill_blank questions (console only; the exam page loads render.ts alone). */
import { FillBlankEditor } from '../../edit/BlanksEditor.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'fill_blank', Editor: FillBlankEditor } satisfies KindEdit<'fill_blank'>;
