/** Drafts of listening questions: no recording yet, two plays, one single-choice sub-question (shared with reading). */
import type { KindDraft, ListeningContentDraft, ListeningKeyDraft } from '../../draftTypes.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    listening: { content: ListeningContentDraft; key: ListeningKeyDraft };
  }
}

export const draft = {
  kind: 'listening',
  empty: ({ emptySub }) => {
    const first = emptySub(1, 'single');
    return {
      content: { stem: '', audio: { play_limit: 2, duration_s: 0 }, subs: [first.sub] },
      key: { audio: { key: '' }, subs: { '1': first.key } },
    };
  },
  give: (b) => ({ subs: { list: b.content.subs, keys: b.key.subs } }),
  take: (b, { subs }) =>
    subs ? { content: { ...b.content, subs: subs.list }, key: { ...b.key, subs: subs.keys } } : b,
} satisfies KindDraft<'listening'>;
