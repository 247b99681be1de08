/** The bank's editor of gradient questions (console only; the exam page loads render.ts alone). */
import { GradientEditor } from '../../edit/ChoiceEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'gradient', Editor: GradientEditor } satisfies KindEdit<'gradient'>;
