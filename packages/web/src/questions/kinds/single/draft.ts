/** Drafts of single-choice questions: four empty options and no right one yet; may be a sub-question. */
import type { ChoiceContentDraft, KindDraft, OneKeyDraft } from '../../draftTypes.js';
import { emptyOptions, onePick, takeOnePick } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    single: { content: ChoiceContentDraft; key: OneKeyDraft };
  }
}

export const draft = {
  kind: 'single',
  empty: () => ({ content: { stem: '', options: emptyOptions(4) }, key: {} }),
  give: (b) => ({ options: b.content.options, picks: onePick(b.key) }),
  take: (b, parts) => {
    const options = parts.options ?? b.content.options;
    return { content: { ...b.content, options }, key: takeOnePick(b.key, parts, options) };
  },
  sub: {
    asBody: (sub, key) => ({
      content: { stem: sub.stem, options: sub.options ?? [] },
      key: key.option === undefined ? {} : { option: key.option },
    }),
    fields: (b) => ({ stem: b.content.stem, options: b.content.options }),
  },
} satisfies KindDraft<'single'>;
