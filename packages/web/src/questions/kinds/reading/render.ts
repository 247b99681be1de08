/** The exam page's answer area of reading questions: the passage's sub-questions. */
import { ReadingAnswer } from '../../render/SubsAnswer.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'reading', Renderer: ReadingAnswer } satisfies KindRender<'reading'>;
