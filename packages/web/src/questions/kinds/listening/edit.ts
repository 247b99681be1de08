/** The bank's editor of listening questions (console only; the exam page loads render.ts alone). */
import { ListeningEditor } from '../../edit/CompoundEditors.js';
import type { KindEdit } from '../editEntry.js';

export { draft } from './draft.js';

export const edit = { kind: 'listening', Editor: ListeningEditor } satisfies KindEdit<'listening'>;
