/** The exam page's answer area of single questions: picked options or filled blanks. */
import { PickRenderer } from '../../render/SubInput.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'single', Renderer: PickRenderer } satisfies KindRender<'single'>;
