/** The exam page's answer area of indefinite questions: picked options or filled blanks. */
import { PickRenderer } from '../../render/SubInput.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'indefinite', Renderer: PickRenderer } satisfies KindRender<'indefinite'>;
