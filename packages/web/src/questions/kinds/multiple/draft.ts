/** Drafts of multiple-choice questions: the several-picks family's rules (four empty options, no right ones yet). */
import type { ChoiceContentDraft, KindDraft, ManyKeyDraft } from '../../draftTypes.js';
import { manyPicksDraft } from '../parts.js';

declare module '../../draftTypes.js' {
  interface BodyDrafts {
    multiple: { content: ChoiceContentDraft; key: ManyKeyDraft };
  }
}

export const draft = manyPicksDraft('multiple') satisfies KindDraft<'multiple'>;
