/** The exam page's answer area of listening questions: the recording's sub-questions. */
import { ListeningAnswer } from '../../render/SubsAnswer.js';
import type { KindRender } from '../renderEntry.js';

export const render = { kind: 'listening', Renderer: ListeningAnswer } satisfies KindRender<'listening'>;
