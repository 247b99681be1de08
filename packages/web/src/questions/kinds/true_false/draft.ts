/** Drafts of true/false questions: the usual two options, which it keeps when the kind changes; may be a sub-question. */
import type { ChoiceContentDraft, KindDraft, OneKeyDraft } from '../../draftTypes.js';
import { onePick, takeOnePick, TRUE_FALSE_OPTIONS, withTexts } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    true_false: { content: ChoiceContentDraft; key: OneKeyDraft };
  }
}

export const draft = {
  kind: 'true_false',
  empty: ({ lang }) => ({ content: { stem: '', options: withTexts(TRUE_FALSE_OPTIONS[lang]) }, key: {} }),
  // Its own two options: neither given to another kind nor taken from one.
  give: (b) => ({ picks: onePick(b.key) }),
  take: (b, parts) => ({ ...b, key: takeOnePick(b.key, parts, b.content.options) }),
  sub: {
    asBody: (sub, key) => ({
      content: { stem: sub.stem, options: sub.options ?? [] },
      key: key.option === undefined ? {} : { option: key.option },
    }),
    fields: (b) => ({ stem: b.content.stem, options: b.content.options }),
  },
} satisfies KindDraft<'true_false'>;
