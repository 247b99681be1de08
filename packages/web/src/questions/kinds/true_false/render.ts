/** The exam page's answer area of true_false questions: picked options or filled blanks. */
import { PickRenderer } from '../../render/SubInput.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'true_false', Renderer: PickRenderer } satisfies KindRender<'true_false'>;
