/** Drafts of indefinite-choice questions: the several-picks family's rules (four empty options, no right ones yet). */
import type { ChoiceContentDraft, KindDraft, ManyKeyDraft } from '../../draftTypes.js';
import { manyPicksDraft } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    indefinite: { content: ChoiceContentDraft; key: ManyKeyDraft };
  }
}

export const draft = manyPicksDraft('indefinite') satisfies KindDraft<'indefinite'>;
