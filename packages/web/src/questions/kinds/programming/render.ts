/** The exam page's answer area of programming questions: source code, loaded on first use. */
import { LazyCodeAnswer } from '../../render/lazyAnswers.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'programming', Renderer: LazyCodeAnswer } satisfies KindRender<'programming'>;
