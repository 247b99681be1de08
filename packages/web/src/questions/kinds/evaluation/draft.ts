/** Drafts of evaluation items: a five-point agreement scale worth 5 down to 1, and the dimension it measures. */
import type { EvaluationContentDraft, KindDraft, ScoresKeyDraft } from '../../draftTypes.js';
import { descendingScores, LIKERT_OPTIONS, takeScored, withTexts } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    evaluation: { content: EvaluationContentDraft; key: ScoresKeyDraft };
  }
}

export const draft = {
  kind: 'evaluation',
  empty: ({ lang }) => {
    const options = withTexts(LIKERT_OPTIONS[lang]);
    return { content: { stem: '', options, dimension: '' }, key: { scores: descendingScores(options) } };
  },
  give: (b) => ({ options: b.content.options, scores: b.key.scores }),
  take: takeScored,
} satisfies KindDraft<'evaluation'>;
