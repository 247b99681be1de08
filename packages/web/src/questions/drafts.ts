/**
 * A question as an editor holds it while the author works: the contract's body shapes, loosened where a
 * form can be half done (no right option yet, a cleared number). The same contract schema the server uses
 * decides when a draft is a question (see problems.ts). Each kind's own rules (its draft type, its empty body, how
 * it is a sub-question, what it hands on when the author changes the kind) are in its folder, kinds/<kind>/draft.ts;
 * the lookups here are derived from them (kinds/drafting.ts). Framework-free so it is tested on its own.
 */
import {
  KINDS,
  QUESTION_KINDS,
  QUESTION_REGISTRY,
  type BankQuestionView,
  type QuestionBody,
  type QuestionKind,
} from '@examhall/contract';
import { draftKinds, type AnyKindBody } from './kinds/drafting.js';
import type {
  AnyKindDraft,
  BodyDrafts,
  BodyOfKind,
  DraftMeta,
  KindBody,
  QuestionDraft,
  SubDraft,
  SubKeyDraft,
} from './draftTypes.js';
import type { SubKind } from './subKinds.js';
import type { Language } from '../i18n/format.js';

export { SUB_KINDS, subKindOf, subTypeOf, type SubKind, type SubType } from './subKinds.js';
export {
  DEFAULT_LANGUAGES,
  DEFAULT_SUB_SCORE,
  descendingScores,
  emptyOptions,
  LIKERT_OPTIONS,
  TRUE_FALSE_OPTIONS,
} from './kinds/parts.js';

export type * from './draftTypes.js';

// A stored question is always a draft (compile-time check that the draft types only loosen the contract's).
const _bodyIsDraft = (b: QuestionBody): KindBody => b;
void _bodyIsDraft;

/** The draft rules of the kinds' folders (each draft.ts's `draft`), by path. */
export const DRAFT_FOLDERS = import.meta.glob<AnyKindDraft>('./kinds/*/draft.ts', { eager: true, import: 'draft' });

/** The product's drafts' lookups, from the kinds' folders (the kinds test checks every contract kind has rules). */
export const DRAFT_KINDS = draftKinds(KINDS, DRAFT_FOLDERS);

/** Points a new question of each kind is worth by default. */
export const DEFAULT_SCORE = Object.fromEntries(
  QUESTION_KINDS.map((k) => [k, QUESTION_REGISTRY[k].defaultScore]),
) as Readonly<Record<QuestionKind, number>>;

/** A new, empty body of a kind: what the author fills in. */
export function emptyBody<K extends QuestionKind>(kind: K, lang: Language = 'zh-CN'): BodyDrafts[K] {
  return DRAFT_KINDS.emptyBody(kind, lang) as BodyDrafts[K];
}

/** A new sub-question of a kind. */
export function emptySub(id: number, kind: SubKind, lang: Language = 'zh-CN'): { sub: SubDraft; key: SubKeyDraft } {
  return DRAFT_KINDS.emptySub(id, kind, lang);
}

/** A new question of a kind with the bank's default metadata. */
export function emptyDraft(kind: QuestionKind, lang: Language = 'zh-CN'): QuestionDraft {
  return {
    ...({ kind, ...emptyBody(kind, lang) } as KindBody),
    explanation: { text: '', options: {} },
    difficulty: 3,
    tags: [],
    knowledge_points: [],
    default_score: DEFAULT_SCORE[kind],
  };
}

/** The draft of a stored bank question. */
export function draftFromView(view: BankQuestionView): QuestionDraft {
  return {
    ...structuredClone(view.question),
    explanation: { text: view.explanation?.text ?? '', options: { ...view.explanation?.options } },
    difficulty: view.difficulty,
    tags: [...view.tags],
    knowledge_points: [...view.knowledge_points],
    default_score: view.default_score,
  };
}

/** The `{kind, content, key}` of a draft. */
export function bodyOf(draft: QuestionDraft): KindBody {
  return { kind: draft.kind, content: draft.content, key: draft.key } as KindBody;
}

/** The metadata of a draft. */
export function metaOf(draft: QuestionDraft): DraftMeta {
  return {
    explanation: draft.explanation,
    difficulty: draft.difficulty,
    tags: draft.tags,
    knowledge_points: draft.knowledge_points,
    default_score: draft.default_score,
  };
}

/** A sub-question as a body of its kind, so the kind's own editor edits it. */
export function subAsBody(sub: SubDraft, key: SubKeyDraft | undefined): KindBody & { kind: SubKind } {
  return DRAFT_KINDS.subAsBody(sub, key) as KindBody & { kind: SubKind };
}

/** A sub-question and its key back from a body of its kind. */
export function subFromBody(
  id: number,
  score: number | null,
  body: KindBody & { kind: SubKind },
): { sub: SubDraft; key: SubKeyDraft } {
  return DRAFT_KINDS.subFromBody(id, score, body);
}

/** The id a new sub-question gets: one above the largest. */
export function nextSubId(subs: readonly SubDraft[]): number {
  return subs.reduce((max, s) => Math.max(max, s.id), 0) + 1;
}

/**
 * A body of another kind that keeps what still fits, as the two kinds' rules hand it over: the stem always, written
 * options between choice kinds (true/false keeps its own two; empty ones give way to the new kind's defaults), the
 * right answers where the key means the same, languages and starter code between the code kinds, the rubric
 * between graded kinds, and the sub-questions between reading and listening.
 */
export function convertBody<K extends QuestionKind>(from: KindBody, to: K, lang: Language = 'zh-CN'): BodyOfKind<K> {
  return DRAFT_KINDS.convertBody(from as AnyKindBody, to, lang) as BodyOfKind<K>;
}

/** The draft with another kind (see convertBody); the metadata stays. */
export function convertDraft(draft: QuestionDraft, to: QuestionKind, lang: Language = 'zh-CN'): QuestionDraft {
  return { ...convertBody(bodyOf(draft), to, lang), ...metaOf(draft) } as QuestionDraft;
}
