/** The exam page's answer area of multiple questions: picked options or filled blanks. */
import { PickRenderer } from '../../render/SubInput.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'multiple', Renderer: PickRenderer } satisfies KindRender<'multiple'>;
