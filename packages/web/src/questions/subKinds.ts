/**
 * The kinds a reading or listening question's sub-questions may have, by name and by type id. Apart from the drafts
 * because the exam page's renderers need them and nothing else of the editor's.
 */
import { QUESTION_REGISTRY } from '@examhall/contract';

/** Type ids a sub-question may have (the contract's SUB_QUESTION_TYPES). */
export type SubType = 1 | 2 | 3 | 4 | 7 | 11;

/** The kinds a reading or listening question's sub-questions may have. */
export const SUB_KINDS = ['single', 'multiple', 'indefinite', 'fill_blank', 'true_false', 'gradient'] as const;
/** A sub-question's kind. */
export type SubKind = (typeof SUB_KINDS)[number];

/** The kind of a sub-question's type id. */
export function subKindOf(type: SubType): SubKind {
  return SUB_KINDS.find((k) => QUESTION_REGISTRY[k].type === type) ?? 'single';
}

/** The type id of a sub-question's kind. */
export function subTypeOf(kind: SubKind): SubType {
  return QUESTION_REGISTRY[kind].type as SubType;
}
