/** The exam page's answer area of gradient questions: picked options or filled blanks. */
import { PickRenderer } from '../../render/SubInput.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'gradient', Renderer: PickRenderer } satisfies KindRender<'gradient'>;
