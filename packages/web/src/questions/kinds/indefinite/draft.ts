/** Drafts of indefinite-choice questions: four empty options and no right ones yet; may be a sub-question. */
import type { ChoiceContentDraft, KindDraft, ManyKeyDraft } from '../../draftTypes.js';
import { emptyOptions, keptPicks } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    indefinite: { content: ChoiceContentDraft; key: ManyKeyDraft };
  }
}

export const draft = {
  kind: 'indefinite',
  empty: () => ({ content: { stem: '', options: emptyOptions(4) }, key: { options: [] } }),
  give: (b) => ({ options: b.content.options, picks: b.key.options }),
  take: (b, parts) => {
    const options = parts.options ?? b.content.options;
    return { content: { ...b.content, options }, key: { options: keptPicks(parts, options) } };
  },
  sub: {
    asBody: (sub, key) => ({
      content: { stem: sub.stem, options: sub.options ?? [] },
      key: { options: key.options ?? [] },
    }),
    fields: (b) => ({ stem: b.content.stem, options: b.content.options }),
  },
} satisfies KindDraft<'indefinite'>;
