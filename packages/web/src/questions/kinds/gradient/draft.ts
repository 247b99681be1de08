/** Drafts of gradient-choice questions: four empty options worth 4 down to 1; may be a sub-question. */
import type { ChoiceContentDraft, KindDraft, ScoresKeyDraft } from '../../draftTypes.js';
import { descendingScores, emptyOptions, takeScored } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    gradient: { content: ChoiceContentDraft; key: ScoresKeyDraft };
  }
}

export const draft = {
  kind: 'gradient',
  empty: () => {
    const options = emptyOptions(4);
    return { content: { stem: '', options }, key: { scores: descendingScores(options) } };
  },
  give: (b) => ({ options: b.content.options, scores: b.key.scores }),
  take: takeScored,
  sub: {
    asBody: (sub, key) => ({
      content: { stem: sub.stem, options: sub.options ?? [] },
      key: { scores: key.scores ?? {} },
    }),
    fields: (b) => ({ stem: b.content.stem, options: b.content.options }),
  },
} satisfies KindDraft<'gradient'>;
