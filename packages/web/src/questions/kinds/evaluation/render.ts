/** The exam page's answer area of evaluation questions: picked options or filled blanks. */
import { PickRenderer } from '../../render/SubInput.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'evaluation', Renderer: PickRenderer } satisfies KindRender<'evaluation'>;
