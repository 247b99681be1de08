/** Drafts of reading questions: a passage and one single-choice sub-question, which it shares with listening. */
import type { KindDraft, ReadingContentDraft, SubsKeyDraft } from '../../draftTypes.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    reading: { content: ReadingContentDraft; key: SubsKeyDraft };
  }
}

export const draft = {
  kind: 'reading',
  empty: ({ emptySub }) => {
    const first = emptySub(1, 'single');
    return { content: { stem: '', passage: '', subs: [first.sub] }, key: { subs: { '1': first.key } } };
  },
  give: (b) => ({ subs: { list: b.content.subs, keys: b.key.subs } }),
  take: (b, { subs }) =>
    subs ? { content: { ...b.content, subs: subs.list }, key: { ...b.key, subs: subs.keys } } : b,
} satisfies KindDraft<'reading'>;
