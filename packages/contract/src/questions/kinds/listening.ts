/** Listening (type 10): audio played a limited number of times and sub-questions about it, scored together. */
import { z } from 'zod';
import { QuestionType } from '../../enums.js';
import { letterOptions, type KindExample, type QuestionSpec } from '../common.js';
import { ListeningKey, listeningContent, type ListeningContent, type SubQuestions } from '../compound.js';

/** The listening kind over the sub-question kinds it is given (kinds/index.ts gives it every kind with `sub`). */
export function listening<T extends number>(subs: SubQuestions<T>) {
  const content = listeningContent(subs);
  const body = z
    .object({ kind: z.literal('listening'), content, key: ListeningKey })
    .superRefine((b, ctx) => subs.checkKeys(ctx, b.content.subs, b.key.subs));
  return {
    kind: 'listening',
    type: QuestionType.listening,
    label: { 'zh-CN': '听力题', 'en-US': 'Listening' },
    sections: ['linetest', 'major'],
    displayOrder: 7,
    content,
    key: ListeningKey,
    body,
    answer: 'subs',
    scoring: 'auto',
    shuffleOptions: false,
    code: false,
    sub: false,
    defaultScore: 10,
    responses: () => null,
    score: (b, value, points) => subs.score(b.content.subs, b.key.subs, value, points),
    answerProblem: (c, value) => subs.answerProblem('listening', c.subs, value),
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
