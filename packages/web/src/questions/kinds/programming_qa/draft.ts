/** Drafts of programming Q&A questions: every language, no starter code and an empty rubric. */
import type { CodeContentDraft, KindDraft, RubricKeyDraft } from '../../draftTypes.js';
import { DEFAULT_LANGUAGES, giveCode, giveGrading, takeCode, takeGrading } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    programming_qa: { content: CodeContentDraft; key: RubricKeyDraft };
  }
}

export const draft = {
  kind: 'programming_qa',
  empty: () => ({ content: { stem: '', languages: [...DEFAULT_LANGUAGES], starter: {} }, key: { rubric: '' } }),
  give: (b) => ({ code: giveCode(b.content), grading: giveGrading(b.key) }),
  take: (b, parts) => ({ content: takeCode(b.content, parts), key: takeGrading(b.key, parts) }),
} satisfies KindDraft<'programming_qa'>;
