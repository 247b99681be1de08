/**
 * The types of a question as an editor holds it (drafts.ts has the functions over them): the contract's body shapes,
 * loosened where a form can be half done. Each kind's folder adds its own line to BodyDrafts.
 */
import type { LanguageId, QuestionKind, RubricCriterion } from '@examhall/contract';
import type { SubKind, SubType } from './subKinds.js';
import type { Language } from '../i18n/format.js';

/** An option: its letter and its text (HTML). */
export interface OptionDraft {
  id: string;
  content: string;
}

/** Stem and options of a choice question. */
export interface ChoiceContentDraft {
  stem: string;
  options: OptionDraft[];
}
/** Key of a one-pick question; no option until the author marks one. */
export interface OneKeyDraft {
  option?: string;
}
/** Key of a several-picks question. */
export interface ManyKeyDraft {
  options: string[];
}
/** Points per option (gradient and evaluation). */
export interface ScoresKeyDraft {
  scores: Partial<Record<string, number>>;
}
/** An evaluation item's content: a choice plus its dimension. */
export interface EvaluationContentDraft extends ChoiceContentDraft {
  dimension: string;
}
/** A fill-in-blank question's content. */
export interface BlankContentDraft {
  stem: string;
  blanks: number;
}
/** Accepted variants per blank. */
export interface BlankKeyDraft {
  blanks: string[][];
}
/** A Q&A question's content. */
export interface QaContentDraft {
  stem: string;
}
/** A grader's rubric. */
export interface RubricKeyDraft {
  rubric?: string;
  /** Criteria scored one by one (checked by the contract's schema as the author types). */
  criteria?: RubricCriterion[];
}
/** Content of a question answered in code. */
export interface CodeContentDraft {
  stem: string;
  languages: LanguageId[];
  starter?: Partial<Record<LanguageId, string>>;
}
/** A sample case. */
export interface SampleDraft {
  input: string;
  output: string;
}
/** A programming question's content; a cleared limit is null until typed again. */
export interface ProgrammingContentDraft extends CodeContentDraft {
  samples: SampleDraft[];
  time_limit_ms: number | null;
  memory_limit_mb: number | null;
}
/** Source in a language (a reference solution or a custom checker). */
export interface SourceDraft {
  language: LanguageId;
  source: string;
}
/** A built-in checker's name or a custom checker. */
export type CheckerDraft = string | SourceDraft;
/** A hidden case. */
export interface CaseDraft {
  name?: string;
  input: string;
  output: string;
}
/** A programming question's key. */
export interface ProgrammingKeyDraft {
  checker: CheckerDraft;
  cases: CaseDraft[];
  reference?: SourceDraft;
}

/** A sub-question of a reading or listening question. */
export interface SubDraft {
  id: number;
  type: SubType;
  score: number | null;
  stem: string;
  options?: OptionDraft[];
  blanks?: number;
}
/** The key of one sub-question: the field its type uses. */
export interface SubKeyDraft {
  option?: string;
  options?: string[];
  blanks?: string[][];
  scores?: Partial<Record<string, number>>;
}
/** A reading question's content. */
export interface ReadingContentDraft {
  stem: string;
  passage: string;
  subs: SubDraft[];
}
/** Keys of the sub-questions by id. */
export interface SubsKeyDraft {
  subs: Record<string, SubKeyDraft>;
}
/** A listening question's content; the duration comes from the server with the upload. */
export interface ListeningContentDraft {
  stem: string;
  audio: { play_limit: number | null; duration_s: number };
  subs: SubDraft[];
}
/** A listening question's key: where the audio is stored, and the subs' keys. */
export interface ListeningKeyDraft extends SubsKeyDraft {
  audio: { key: string };
}

/**
 * Content and key of each kind while it is edited: each kind's folder adds its own line (kinds/<kind>/draft.ts,
 * `declare module '../../draftTypes.js'`), so a kind without one is a compile error wherever drafts are typed by kind.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the kinds' folders
export interface BodyDrafts {}
/** Content and key of kind K while it is edited. */
export type BodyDraft<K extends QuestionKind = QuestionKind> = BodyDrafts[K];
/** A body of kind K with its kind (a union when K is). */
export type BodyOfKind<K extends QuestionKind> = K extends QuestionKind ? { kind: K } & BodyDrafts[K] : never;
/** A body of some kind, with its kind. */
export type KindBody = BodyOfKind<QuestionKind>;

/** The bank's fields around the body. */
export interface DraftMeta {
  /** The explanation (HTML; '' for none) and the feedback per option ('A', or '2.A' for a sub-question's). */
  explanation: { text: string; options: Record<string, string> };
  /** 1 (easy) to 5 (hard). */
  difficulty: number;
  tags: string[];
  knowledge_points: string[];
  /** Points it gets in an exam unless the exam says otherwise; null while the field is cleared. */
  default_score: number | null;
}

/** What QuestionEditor edits: `{kind, content, key, explanation, difficulty, tags, knowledge_points, default_score}`. */
export type QuestionDraft = KindBody & DraftMeta;

/** A draft body of any kind, as the kinds' rules see it. */
export interface AnyBodyDraft {
  content: { stem: string };
  key: object;
}

/** What one kind's body hands on to a body of another kind when the author changes the kind (convertBody). */
export interface SharedParts {
  /** Options (only those of a kind whose options another may take; dropped while none is written). */
  options?: OptionDraft[];
  /** The right options' ids. */
  picks?: string[];
  /** Points per option. */
  scores?: Partial<Record<string, number>>;
  /** Languages and starter code. */
  code?: { languages: LanguageId[]; starter?: Partial<Record<LanguageId, string>> };
  /** A grader's rubric and criteria. */
  grading?: RubricKeyDraft;
  /** Sub-questions and their keys by id. */
  subs?: { list: SubDraft[]; keys: Record<string, SubKeyDraft> };
}

/** What the drafts give a kind's rules to build with. */
export interface DraftKit {
  /** The language of the texts a new body starts with (the author's page's). */
  lang: Language;
  /** A new sub-question of a kind (reading and listening start with one). */
  emptySub(id: number, kind: SubKind): { sub: SubDraft; key: SubKeyDraft };
}

/** How a kind that may be a sub-question is one: its body from the sub-question and its key, and back. */
export interface SubRules<B extends AnyBodyDraft> {
  /** The kind's body from a sub-question and its key. */
  asBody(sub: SubDraft, key: SubKeyDraft): B;
  /** The sub-question's fields from the kind's body (its key is the body's key). */
  fields(body: B): Pick<SubDraft, 'stem' | 'options' | 'blanks'>;
}

/** A kind's draft rules (kinds/<kind>/draft.ts exports them as `draft`), for a kind of name K with bodies B. */
export interface DraftRules<K extends string, B extends AnyBodyDraft> {
  kind: K;
  /** A new, empty body: what the author fills in. */
  empty(kit: DraftKit): B;
  /** What the body hands on to another kind's. */
  give(body: B): SharedParts;
  /** The new kind's empty body with what the old one handed on put in (the stem is put in for every kind). */
  take(body: B, parts: SharedParts): B;
  /** How it is a sub-question, for the kinds that may be one. */
  sub?: SubRules<B>;
}

/** The draft rules of a product kind: with `sub` exactly when the contract says it may be a sub-question. */
export type KindDraft<K extends QuestionKind> = DraftRules<K, BodyDrafts[K]> &
  (K extends SubKind ? { sub: SubRules<BodyDrafts[K]> } : { sub?: undefined });

/** The draft rules of some kind. */
export type AnyKindDraft = DraftRules<string, AnyBodyDraft>;
