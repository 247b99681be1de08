/**
 * A question as an editor holds it while the author works: the contract's body shapes, loosened where a
 * form can be half done (no right option yet, a cleared number). The same contract schema the server uses
 * decides when a draft is a question (see problems.ts). Framework-free so it is tested on its own.
 */
import {
  CODE_LIMITS,
  OPTION_IDS,
  type BankQuestionView,
  type LanguageId,
  type QuestionBody,
  type RubricCriterion,
  type QuestionKind,
} from '@examhall/contract';
import { subKindOf, subTypeOf, type SubKind, type SubType } from './subKinds.js';

export { SUB_KINDS, subKindOf, subTypeOf, type SubKind, type SubType } from './subKinds.js';

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

/** Content and key of each kind while it is edited. */
export interface BodyDrafts {
  single: { content: ChoiceContentDraft; key: OneKeyDraft };
  multiple: { content: ChoiceContentDraft; key: ManyKeyDraft };
  indefinite: { content: ChoiceContentDraft; key: ManyKeyDraft };
  fill_blank: { content: BlankContentDraft; key: BlankKeyDraft };
  qa: { content: QaContentDraft; key: RubricKeyDraft };
  programming: { content: ProgrammingContentDraft; key: ProgrammingKeyDraft };
  true_false: { content: ChoiceContentDraft; key: OneKeyDraft };
  programming_qa: { content: CodeContentDraft; key: RubricKeyDraft };
  reading: { content: ReadingContentDraft; key: SubsKeyDraft };
  listening: { content: ListeningContentDraft; key: ListeningKeyDraft };
  gradient: { content: ChoiceContentDraft; key: ScoresKeyDraft };
  evaluation: { content: EvaluationContentDraft; key: ScoresKeyDraft };
}
/** Content and key of kind K while it is edited. */
export type BodyDraft<K extends QuestionKind = QuestionKind> = BodyDrafts[K];
/** A body of kind K with its kind (a union when K is). */
export type BodyOfKind<K extends QuestionKind> = K extends QuestionKind ? { kind: K } & BodyDrafts[K] : never;
/** A body of some kind, with its kind. */
export type KindBody = BodyOfKind<QuestionKind>;

/** The bank's fields around the body. */
export interface DraftMeta {
  /** 1 (easy) to 5 (hard). */
  difficulty: number;
  tags: string[];
  knowledge_points: string[];
  /** Points it gets in an exam unless the exam says otherwise; null while the field is cleared. */
  default_score: number | null;
}

/** What QuestionEditor edits: `{kind, content, key, difficulty, tags, knowledge_points, default_score}`. */
export type QuestionDraft = KindBody & DraftMeta;

// A stored question is always a draft (compile-time check that the draft types only loosen the contract's).
const _bodyIsDraft = (b: QuestionBody): KindBody => b;
void _bodyIsDraft;

/** Languages a new programming question offers. */
export const DEFAULT_LANGUAGES: LanguageId[] = ['c', 'cpp', 'java', 'python', 'javascript', 'go'];

/** Points a new question of each kind is worth by default. */
export const DEFAULT_SCORE: Readonly<Record<QuestionKind, number>> = {
  single: 5,
  multiple: 5,
  indefinite: 5,
  fill_blank: 5,
  qa: 10,
  programming: 20,
  true_false: 2,
  programming_qa: 10,
  reading: 10,
  listening: 10,
  gradient: 5,
  evaluation: 5,
};

/** `n` empty options A, B, … */
export function emptyOptions(n: number): OptionDraft[] {
  return OPTION_IDS.slice(0, n).map((id) => ({ id, content: '' }));
}

const withTexts = (texts: readonly string[]): OptionDraft[] =>
  texts.map((content, i) => ({ id: OPTION_IDS[i] ?? String(i), content }));

/** The usual true/false options. */
export const TRUE_FALSE_OPTIONS = ['正确 True', '错误 False'] as const;

/** A five-point agreement scale for evaluation items, best first. */
export const LIKERT_OPTIONS = [
  '非常同意 Strongly agree',
  '同意 Agree',
  '一般 Neutral',
  '不同意 Disagree',
  '非常不同意 Strongly disagree',
] as const;

/** Points falling from `n` to 1 down the options. */
function descendingScores(options: readonly OptionDraft[]): Partial<Record<string, number>> {
  return Object.fromEntries(options.map((o, i) => [o.id, options.length - i]));
}

/** Points a new sub-question is worth. */
export const DEFAULT_SUB_SCORE = 5;

/** A new sub-question of a kind. */
export function emptySub(id: number, kind: SubKind): { sub: SubDraft; key: SubKeyDraft } {
  const body = emptyBody(kind);
  return subFromBody(id, DEFAULT_SUB_SCORE, { kind, ...body } as KindBody & { kind: SubKind });
}

const EMPTY: { [K in QuestionKind]: () => BodyDrafts[K] } = {
  single: () => ({ content: { stem: '', options: emptyOptions(4) }, key: {} }),
  multiple: () => ({ content: { stem: '', options: emptyOptions(4) }, key: { options: [] } }),
  indefinite: () => ({ content: { stem: '', options: emptyOptions(4) }, key: { options: [] } }),
  fill_blank: () => ({ content: { stem: '', blanks: 1 }, key: { blanks: [[]] } }),
  qa: () => ({ content: { stem: '' }, key: { rubric: '' } }),
  programming: () => ({
    content: {
      stem: '',
      languages: [...DEFAULT_LANGUAGES],
      starter: {},
      samples: [],
      time_limit_ms: CODE_LIMITS.timeMs.default,
      memory_limit_mb: CODE_LIMITS.memoryMb.default,
    },
    key: { checker: 'default', cases: [] },
  }),
  true_false: () => ({ content: { stem: '', options: withTexts(TRUE_FALSE_OPTIONS) }, key: {} }),
  programming_qa: () => ({
    content: { stem: '', languages: [...DEFAULT_LANGUAGES], starter: {} },
    key: { rubric: '' },
  }),
  reading: () => {
    const first = emptySub(1, 'single');
    return { content: { stem: '', passage: '', subs: [first.sub] }, key: { subs: { '1': first.key } } };
  },
  listening: () => {
    const first = emptySub(1, 'single');
    return {
      content: { stem: '', audio: { play_limit: 2, duration_s: 0 }, subs: [first.sub] },
      key: { audio: { key: '' }, subs: { '1': first.key } },
    };
  },
  gradient: () => {
    const options = emptyOptions(4);
    return { content: { stem: '', options }, key: { scores: descendingScores(options) } };
  },
  evaluation: () => {
    const options = withTexts(LIKERT_OPTIONS);
    return { content: { stem: '', options, dimension: '' }, key: { scores: descendingScores(options) } };
  },
};

/** A new, empty body of a kind: what the author fills in. */
export function emptyBody<K extends QuestionKind>(kind: K): BodyDrafts[K] {
  return EMPTY[kind]();
}

/** A new question of a kind with the bank's default metadata. */
export function emptyDraft(kind: QuestionKind): QuestionDraft {
  return {
    ...({ kind, ...emptyBody(kind) } as KindBody),
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
    difficulty: draft.difficulty,
    tags: draft.tags,
    knowledge_points: draft.knowledge_points,
    default_score: draft.default_score,
  };
}

/** A sub-question as a body of its kind, so the kind's own editor edits it. */
export function subAsBody(sub: SubDraft, key: SubKeyDraft | undefined): KindBody & { kind: SubKind } {
  const kind = subKindOf(sub.type);
  const k = key ?? {};
  switch (kind) {
    case 'single':
    case 'true_false':
      return { kind, content: { stem: sub.stem, options: sub.options ?? [] }, key: pick(k, 'option') };
    case 'multiple':
    case 'indefinite':
      return { kind, content: { stem: sub.stem, options: sub.options ?? [] }, key: { options: k.options ?? [] } };
    case 'gradient':
      return { kind, content: { stem: sub.stem, options: sub.options ?? [] }, key: { scores: k.scores ?? {} } };
    case 'fill_blank':
      return { kind, content: { stem: sub.stem, blanks: sub.blanks ?? 1 }, key: { blanks: k.blanks ?? [] } };
  }
}

function pick(k: SubKeyDraft, field: 'option'): OneKeyDraft {
  return k[field] === undefined ? {} : { option: k[field] };
}

/** A sub-question and its key back from a body of its kind. */
export function subFromBody(
  id: number,
  score: number | null,
  body: KindBody & { kind: SubKind },
): { sub: SubDraft; key: SubKeyDraft } {
  const type = subTypeOf(body.kind);
  if (body.kind === 'fill_blank') {
    return { sub: { id, type, score, stem: body.content.stem, blanks: body.content.blanks }, key: body.key };
  }
  return { sub: { id, type, score, stem: body.content.stem, options: body.content.options }, key: body.key };
}

/** The id a new sub-question gets: one above the largest. */
export function nextSubId(subs: readonly SubDraft[]): number {
  return subs.reduce((max, s) => Math.max(max, s.id), 0) + 1;
}

const hasOptions = (b: KindBody): b is KindBody & { content: ChoiceContentDraft } => 'options' in b.content;

/**
 * A body of another kind that keeps what still fits: the stem always, written options between choice kinds
 * (true/false keeps its own two; empty ones give way to the new kind's defaults), the right answers where the
 * key means the same, languages and starter code between the code kinds, the rubric between graded kinds, and
 * the sub-questions between reading and listening.
 */
export function convertBody<K extends QuestionKind>(from: KindBody, to: K): BodyOfKind<K> {
  const next = { kind: to, ...emptyBody(to) } as KindBody;
  if (from.kind === to) return structuredClone(from) as BodyOfKind<K>;
  next.content.stem = from.content.stem;
  // Options nobody has written yet are not kept: the new kind's own defaults (an evaluation item's agreement
  // scale) are worth more than empty rows.
  const written = (b: KindBody) => hasOptions(b) && b.content.options.some((o) => o.content.trim() !== '');
  if (
    hasOptions(from) &&
    written(from) &&
    hasOptions(next) &&
    next.kind !== 'true_false' &&
    from.kind !== 'true_false'
  ) {
    next.content.options = structuredClone(from.content.options);
    if (next.kind === 'gradient' || next.kind === 'evaluation')
      next.key.scores =
        from.kind === 'gradient' || from.kind === 'evaluation'
          ? { ...from.key.scores }
          : descendingScores(next.content.options);
  }
  const rightOnes =
    from.kind === 'single' || from.kind === 'true_false'
      ? from.key.option === undefined
        ? []
        : [from.key.option]
      : from.kind === 'multiple' || from.kind === 'indefinite'
        ? from.key.options
        : [];
  const ids = new Set(next.kind === 'fill_blank' || !hasOptions(next) ? [] : next.content.options.map((o) => o.id));
  const kept = rightOnes.filter((id) => ids.has(id));
  if ((next.kind === 'single' || next.kind === 'true_false') && kept.length === 1) next.key.option = kept[0];
  if (next.kind === 'multiple' || next.kind === 'indefinite') next.key.options = kept;
  if ((from.kind === 'programming' || from.kind === 'programming_qa') && 'languages' in next.content) {
    next.content.languages = [...from.content.languages];
    next.content.starter = { ...from.content.starter };
  }
  if ((from.kind === 'qa' || from.kind === 'programming_qa') && (next.kind === 'qa' || next.kind === 'programming_qa'))
    next.key = { ...next.key, rubric: from.key.rubric, ...(from.key.criteria ? { criteria: from.key.criteria } : {}) };
  if (
    (from.kind === 'reading' || from.kind === 'listening') &&
    (next.kind === 'reading' || next.kind === 'listening')
  ) {
    next.content.subs = structuredClone(from.content.subs);
    next.key.subs = structuredClone(from.key.subs);
  }
  if (from.kind === 'fill_blank' && next.kind === 'fill_blank') next.key = structuredClone(from.key);
  return next as BodyOfKind<K>;
}

/** The draft with another kind (see convertBody); the metadata stays. */
export function convertDraft(draft: QuestionDraft, to: QuestionKind): QuestionDraft {
  return { ...convertBody(bodyOf(draft), to), ...metaOf(draft) } as QuestionDraft;
}
