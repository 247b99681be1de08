/** The exam page's answer area of programming_qa questions: source code, loaded on first use. */
import { LazyCodeAnswer } from '../../render/lazyAnswers.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'programming_qa', Renderer: LazyCodeAnswer } satisfies KindRender<'programming_qa'>;
