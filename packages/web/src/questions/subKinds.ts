/**
 * The kinds a reading or listening question's sub-questions may have, by name and by type id: the contract's kinds
 * with `sub`. Apart from the drafts because the exam page's renderers need them and nothing else of the editor's.
 */
import { KIND_SPECS, QUESTION_REGISTRY, type QuestionKind } from '@examhall/contract';

/** The kinds that may be a sub-question (each kind's `sub` in the contract). */
type SubSpec = Extract<(typeof KIND_SPECS)[number], { sub: true }>;

/** A sub-question's kind. */
export type SubKind = SubSpec['kind'];

/** Type ids a sub-question may have (the contract's SUB_QUESTION_TYPES). */
export type SubType = SubSpec['type'];

/** The kinds a reading or listening question's sub-questions may have. */
export const SUB_KINDS = KIND_SPECS.filter((s): s is SubSpec => s.sub).map((s) => s.kind);

/** The kind of a sub-question's type id. */
export function subKindOf(type: SubType): SubKind {
  return SUB_KINDS.find((k) => QUESTION_REGISTRY[k].type === type) ?? 'single';
}

/** The type id of a sub-question's kind. */
export function subTypeOf(kind: SubKind): SubType {
  return QUESTION_REGISTRY[kind].type;
}

/** Whether a kind may be a sub-question. */
export const isSubKind = (kind: QuestionKind): kind is SubKind => QUESTION_REGISTRY[kind].sub;
