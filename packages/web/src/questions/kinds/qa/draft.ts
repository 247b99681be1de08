/** Drafts of Q&A questions: a stem and an empty rubric, which it shares with programming Q&A. */
import type { KindDraft, QaContentDraft, RubricKeyDraft } from '../../draftTypes.js';
import { giveGrading, takeGrading } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    qa: { content: QaContentDraft; key: RubricKeyDraft };
  }
}

export const draft = {
  kind: 'qa',
  empty: () => ({ content: { stem: '' }, key: { rubric: '' } }),
  give: (b) => ({ grading: giveGrading(b.key) }),
  take: (b, parts) => ({ ...b, key: takeGrading(b.key, parts) }),
} satisfies KindDraft<'qa'>;
