/** Listening (type 10): audio played a limited number of times and sub-questions about it, scored together. */
import { QuestionType } from '../../enums.js';
import { letterOptions, type KindExample, type QuestionSpec } from '../common.js';
import {
  compoundFacts,
  ListeningKey,
  listeningContent,
  type ListeningContent,
  type SubQuestions,
} from '../compound.js';

/** The listening kind over the sub-question kinds it is given (kinds/index.ts gives it every kind with `sub`). */
export function listening<T extends number>(subs: SubQuestions<T>) {
  return {
    ...compoundFacts('listening', subs, { content: listeningContent(subs), key: ListeningKey }),
    type: QuestionType.listening,
    label: { 'zh-CN': '听力题', 'en-US': 'Listening' },
    displayOrder: 7,
    candidateView: (c) => ({
      stem: c.stem,
      audio: { play_limit: c.audio.play_limit, duration_s: c.audio.duration_s },
      subs: subs.view(c.subs),
    }),
  } satisfies QuestionSpec<'listening', ListeningContent<T>, ListeningKey>;
}

/** Complete questions of the kind, the first the plainest (tests parse them; the demo exam shows them all). */
export const listeningExamples = (): KindExample<ListeningContent, ListeningKey>[] => [
  {
    demo: { section: 'major', points: 4 },
    // The demo exam stores five beeps (3.3 s) under this key.
    content: {
      stem: '<p>听录音并回答问题（最多播放 2 次）。 / Listen and answer (at most 2 plays).</p>',
      audio: { play_limit: 2, duration_s: 3.3 },
      subs: [
        {
          id: 1,
          type: QuestionType.single,
          score: 4,
          stem: '<p>你听到了几声提示音？ / How many beeps do you hear?</p>',
          options: letterOptions('3', '5', '8'),
        },
      ],
    },
    key: { audio: { key: 'demo/listening-beeps.wav' }, subs: { '1': { option: 'B' } } },
  },
];
