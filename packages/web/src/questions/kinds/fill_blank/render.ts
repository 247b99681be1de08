/** The exam page's answer area of fill_blank questions: picked options or filled blanks. */
import { PickRenderer } from '../../render/SubInput.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'fill_blank', Renderer: PickRenderer } satisfies KindRender<'fill_blank'>;
