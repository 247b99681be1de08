/** Drafts of fill-in-the-blank questions: one blank with no accepted answer yet; may be a sub-question. */
import type { BlankContentDraft, BlankKeyDraft, KindDraft } from '../../draftTypes.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    fill_blank: { content: BlankContentDraft; key: BlankKeyDraft };
  }
}

export const draft = {
  kind: 'fill_blank',
  empty: () => ({ content: { stem: '', blanks: 1 }, key: { blanks: [[]] } }),
  give: () => ({}),
  take: (b) => b,
  sub: {
    asBody: (sub, key) => ({ content: { stem: sub.stem, blanks: sub.blanks ?? 1 }, key: { blanks: key.blanks ?? [] } }),
    fields: (b) => ({ stem: b.content.stem, blanks: b.content.blanks }),
  },
} satisfies KindDraft<'fill_blank'>;
