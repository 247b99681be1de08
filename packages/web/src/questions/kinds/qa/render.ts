/** The exam page's answer area of qa questions: rich text, loaded on first use. */
import { LazyQaAnswer } from '../../render/lazyAnswers.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'qa', Renderer: LazyQaAnswer } satisfies KindRender<'qa'>;
