/**
 * What is wrong with a draft, found by the same contract schema the server checks a bank question with
 * (BankQuestionCreateBody: the typed question plus the bank's fields), each problem placed at the field
 * that shows it and said in the app's languages. Framework-free so it is tested on its own.
 */
import {
  BankQuestionCreateBody,
  feedbackTargets,
  LANGUAGES,
  OPTION_IDS,
  trimmedExplanation,
  type QuestionExplanation,
} from '@examhall/contract';
import type { MessageParams } from '../i18n/format.js';
import type { MessageKey } from '../i18n/zh.js';
import { bodyOf, type QuestionDraft } from './drafts.js';

/** A path into a draft, from its top: ['content', 'options', 1, 'content']. */
export type DraftPath = readonly (string | number)[];

/** A message and its parameters. */
export interface Text {
  key: MessageKey;
  params?: MessageParams;
}

/** One problem of a draft. */
export interface Problem {
  /** Where in the draft, as the schema reported it (the bank's `question` level taken out). */
  path: DraftPath;
  /** The field that shows it (see fieldOf). */
  field: string;
  /** What is wrong, in the app's languages. */
  text: Text;
  /** The contract's own message, for the logs and as a last resort. */
  raw: string;
}

/** A draft the server accepts, as the fields of a bank create or update call (defaults applied). */
export type DraftFields = Pick<
  ReturnType<typeof BankQuestionCreateBody.parse>,
  'question' | 'explanation' | 'difficulty' | 'tags' | 'knowledge_points' | 'default_score'
>;

/**
 * Checks a draft with the server's schema: the fields to send (folder, team and revision are the page's to
 * add), or every problem found.
 */
export function checkDraft(
  draft: QuestionDraft,
): { ok: true; fields: DraftFields } | { ok: false; problems: Problem[] } {
  const parsed = BankQuestionCreateBody.safeParse({
    question: bodyOf(draft),
    explanation: explanationOf(draft),
    difficulty: draft.difficulty,
    tags: draft.tags,
    knowledge_points: draft.knowledge_points,
    default_score: draft.default_score,
  });
  if (parsed.success) {
    const { question, explanation, difficulty, tags, knowledge_points, default_score } = parsed.data;
    return { ok: true, fields: { question, explanation, difficulty, tags, knowledge_points, default_score } };
  }
  const problems = parsed.error.issues.map((issue) => {
    const full = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    const path = full[0] === 'question' ? full.slice(1) : full;
    return problemAt(path, issue.message);
  });
  return { ok: false, problems };
}

/**
 * A draft's explanation as sent: the feedback of options the question still has (an option removed or a kind
 * changed takes its feedback with it), blank ones left out; null when nothing is said.
 */
export function explanationOf(draft: QuestionDraft): QuestionExplanation | null {
  const targets = new Set(feedbackTargets(draft.content));
  const options = Object.fromEntries(
    Object.entries(draft.explanation.options).filter(([id, text]) => targets.has(id) && text.trim() !== ''),
  );
  return trimmedExplanation({ text: draft.explanation.text, options });
}

/** The problems of a draft: an empty list means the server accepts it. */
export function validateDraft(draft: QuestionDraft): Problem[] {
  const checked = checkDraft(draft);
  return checked.ok ? [] : checked.problems;
}

/** A problem at a path from the schema's message. */
export function problemAt(path: DraftPath, message: string): Problem {
  return { path, field: fieldOf(path), text: problemText(path, message), raw: message };
}

const isIndex = (p: string | number | undefined): p is number => typeof p === 'number';

/**
 * The field that shows a problem at `path`: the path itself, except where the editor shows one field for a
 * list or a compound value: an option row (content.options.1), the right answers (key.options), a blank's
 * variants (key.blanks.0), a sample (content.samples.2), the languages, the starter code, the cases, the checker, the
 * reference solution, the tags and the knowledge points.
 */
export function fieldOf(path: DraftPath): string {
  const [a, b, c] = path;
  const head = `${String(a)}.${String(b)}`;
  if (a === 'tags' || a === 'knowledge_points') return String(a);
  if (a === 'content' && (b === 'options' || b === 'samples') && isIndex(c)) return `${head}.${c}`;
  if (a === 'content' && (b === 'languages' || b === 'starter')) return head;
  if (a === 'key' && b === 'options') return head;
  if (a === 'key' && b === 'blanks' && isIndex(c)) return `${head}.${c}`;
  if (a === 'key' && (b === 'cases' || b === 'checker' || b === 'reference')) return head;
  if (a === 'content' && b === 'subs' && isIndex(c)) return `${head}.${c}`;
  if (a === 'key' && b === 'subs' && c !== undefined) return `${head}.${String(c)}`;
  return path.map(String).join('.');
}

/**
 * The problems of sub-question `index` (id `id`) as its own editor sees them: content.subs.1.stem becomes
 * content.stem and key.subs.7.option becomes key.option; its points (content.subs.1.score) become `score`.
 */
export function subProblems(problems: readonly Problem[], index: number, id: number): Problem[] {
  const out: Problem[] = [];
  for (const p of problems) {
    const [a, b, c, ...rest] = p.path;
    let path: DraftPath | null = null;
    if (a === 'content' && b === 'subs' && c === index) path = rest[0] === 'score' ? ['score'] : ['content', ...rest];
    if (a === 'key' && b === 'subs' && c === String(id)) path = ['key', ...rest];
    if (path) out.push({ ...p, path, field: fieldOf(path) });
  }
  return out;
}

/** The problems a field shows. */
export function problemsOf(problems: readonly Problem[], field: string): Problem[] {
  return problems.filter((p) => p.field === field);
}

/** True when one path is the other or lies inside it. */
export function related(a: DraftPath, b: DraftPath): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (String(a[i]) !== String(b[i])) return false;
  return true;
}

/** Every leaf path where two drafts differ (what the author just changed). */
export function changedPaths(before: unknown, after: unknown, at: (string | number)[] = []): DraftPath[] {
  if (Object.is(before, after)) return [];
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  if (!isObj(before) || !isObj(after) || Array.isArray(before) !== Array.isArray(after)) return [at];
  const out: DraftPath[] = [];
  if (Array.isArray(before) && Array.isArray(after)) {
    for (let i = 0; i < Math.max(before.length, after.length); i++) {
      if (i >= before.length || i >= after.length) out.push([...at, i]);
      else out.push(...changedPaths(before[i], after[i], [...at, i]));
    }
    return out;
  }
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
    out.push(...changedPaths(before[k], after[k], [...at, k]));
  }
  return out;
}

/** The problems to show now: all of them, or those near what the author has changed. */
export function shownProblems(problems: readonly Problem[], touched: readonly DraftPath[], all: boolean): Problem[] {
  if (all) return [...problems];
  return problems.filter((p) => touched.some((t) => related(t, p.path)));
}

// ---------------------------------------------------------------- messages

/** One rule: a contract message pattern and the dictionary key that says it (capture groups become params). */
interface Rule {
  re: RegExp;
  key: MessageKey;
  params?: readonly string[];
}

const N = ['n'] as const;
const ID = ['id'] as const;

/** The contract's messages (questions/*.ts and the bank's fields), each with its text in the dictionaries. */
const RULES: readonly Rule[] = [
  { re: /^the stem is empty$/, key: 'qedit.err.stemEmpty' },
  { re: /^the passage is empty$/, key: 'qedit.err.passageEmpty' },
  { re: /^the option is empty$/, key: 'qedit.err.optionEmpty' },
  { re: /too long$/, key: 'qedit.err.tooLong' },
  { re: /^at most (\d+) characters$/, key: 'qedit.err.tooManyChars', params: N },
  { re: /^exactly (\d+) options$/, key: 'qedit.err.optionsExactly', params: N },
  { re: /^at least (\d+) options$/, key: 'qedit.err.optionsMin', params: N },
  { re: /^at most (\d+) options$/, key: 'qedit.err.optionsMax', params: N },
  { re: /^option id (\w+) is used twice$/, key: 'qedit.err.optionIdTwice', params: ID },
  { re: /^an option id is a letter/, key: 'qedit.err.optionId' },
  { re: /^points must be a number$/, key: 'qedit.err.pointsNumber' },
  { re: /^points are 0 or more$/, key: 'qedit.err.pointsMin' },
  { re: /^at most (\d+) points$/, key: 'qedit.err.pointsMax', params: N },
  { re: /^option (\w+) has no points$/, key: 'qedit.err.optionNoPoints', params: ID },
  { re: /^there is no option (\w+)$/, key: 'qedit.err.noSuchOption', params: ID },
  { re: /^at least one option must earn points$/, key: 'qedit.err.somePoints' },
  { re: /^choose at least one right option$/, key: 'qedit.err.chooseRight' },
  { re: /^choose at least (\d+) right options$/, key: 'qedit.err.chooseRightMin', params: N },
  { re: /^option (\w+) is listed twice$/, key: 'qedit.err.listedTwice', params: ID },
  { re: /^the number of blanks/, key: 'qedit.err.blanksNumber' },
  { re: /^at least one blank$/, key: 'qedit.err.blanksMin' },
  { re: /^at most (\d+) blanks$/, key: 'qedit.err.blanksMax', params: N },
  { re: /^an accepted answer is at most (\d+) characters$/, key: 'qedit.err.variantTooLong', params: N },
  { re: /^an accepted answer is empty$/, key: 'qedit.err.variantEmpty' },
  { re: /^give at least one accepted answer for this blank$/, key: 'qedit.err.variantMissing' },
  {
    re: /^the question has (\d+) blank\(s\) but the key gives answers for (\d+)$/,
    key: 'qedit.err.blankCount',
    params: ['n', 'm'],
  },
  { re: /^name the dimension this item measures$/, key: 'qedit.err.dimensionMissing' },
  { re: /^a dimension name is at most (\d+) characters$/, key: 'qedit.err.dimensionTooLong', params: N },
  { re: /^not a language the judge knows$/, key: 'qedit.err.unknownLanguage' },
  { re: /^offer at least one language$/, key: 'qedit.err.languagesMin' },
  { re: /^(\w+) is listed twice$/, key: 'qedit.err.listedTwice', params: ID },
  { re: /^(\w+) is not offered$/, key: 'qedit.err.starterNotOffered', params: ['lang'] },
  { re: /^at most (\d+) samples$/, key: 'qedit.err.samplesMax', params: N },
  { re: /^the time limit (must be a number|is a whole number)/, key: 'qedit.err.timeNumber' },
  { re: /^at least (\d+) ms$/, key: 'qedit.err.timeMin', params: N },
  { re: /^at most (\d+) ms$/, key: 'qedit.err.timeMax', params: N },
  { re: /^the memory limit (must be a number|is a whole number)/, key: 'qedit.err.memoryNumber' },
  { re: /^at least (\d+) MB$/, key: 'qedit.err.memoryMin', params: N },
  { re: /^at most (\d+) MB$/, key: 'qedit.err.memoryMax', params: N },
  { re: /^use default, exact, lines, float/, key: 'qedit.err.checkerName' },
  { re: /^the checker has no source$/, key: 'qedit.err.checkerEmpty' },
  { re: /^the reference solution is empty$/, key: 'qedit.err.referenceEmpty' },
  { re: /^add at least one hidden case$/, key: 'qedit.err.casesMin' },
  { re: /^at most (\d+) hidden cases$/, key: 'qedit.err.casesMax', params: N },
  { re: /^add at least one sub-question$/, key: 'qedit.err.subsMin' },
  { re: /^at most (\d+) sub-questions$/, key: 'qedit.err.subsMax', params: N },
  { re: /^sub-question id (\d+) is used twice$/, key: 'qedit.err.subIdTwice', params: ID },
  { re: /^a sub-question id|^sub-question ids start/, key: 'qedit.err.subId' },
  { re: /^a sub-question is single/, key: 'qedit.err.subType' },
  { re: /^there is no sub-question (\d+)$/, key: 'qedit.err.noSuchSub', params: ID },
  { re: /^sub-question (\d+) has no key$/, key: 'qedit.err.subNoKey', params: ID },
  { re: /^the play limit/, key: 'qedit.err.playLimitNumber' },
  { re: /^at least one play$/, key: 'qedit.err.playLimitMin' },
  { re: /^at most (\d+) plays$/, key: 'qedit.err.playLimitMax', params: N },
  { re: /^the duration must be/, key: 'qedit.err.audioMissing' },
  { re: /^upload the audio$/, key: 'qedit.err.audioMissing' },
  { re: /^at most three hours$/, key: 'qedit.err.audioTooLong' },
  { re: /^a tag is empty$/, key: 'qedit.err.tagEmpty' },
  { re: /^a tag has at most (\d+) characters$/, key: 'qedit.err.tagTooLong', params: N },
  { re: /^at most (\d+) tags$/, key: 'qedit.err.tagsMax', params: N },
  { re: /^a knowledge point is empty$/, key: 'qedit.err.pointEmpty' },
  { re: /^a knowledge point has at most (\d+) characters$/, key: 'qedit.err.pointTooLong', params: N },
  { re: /^at most (\d+) knowledge points$/, key: 'qedit.err.pointsListMax', params: N },
  { re: /^no control characters$/, key: 'qedit.err.controlChars' },
  { re: /^the difficulty/, key: 'qedit.err.difficulty' },
  { re: /^the score must be a number$/, key: 'qedit.err.scoreNumber' },
  { re: /^the score is 0 or more$/, key: 'qedit.err.pointsMin' },
];

/** The text of a problem: the right-answer fields speak of marking, the rest follow the contract's message. */
export function problemText(path: DraftPath, message: string): Text {
  const last = path[path.length - 1];
  const missing = /received undefined$/.test(message);
  // An unmarked right answer reads "not a letter from A to H" in the contract: say what to do instead.
  if (last === 'option' && (missing || /^an option id is a letter/.test(message)))
    return { key: 'qedit.err.markRight' };
  for (const rule of RULES) {
    const m = rule.re.exec(message);
    if (!m) continue;
    const params: Record<string, string> = {};
    rule.params?.forEach((name, i) => (params[name] = m[i + 1] ?? ''));
    return rule.params ? { key: rule.key, params } : { key: rule.key };
  }
  // Zod's own messages (no custom text in the contract) for a missing value.
  if (missing) return { key: 'qedit.err.required' };
  return { key: 'qedit.err.other', params: { msg: message } };
}

/** True when a problem is said by one of the contract's known messages (not the fallback). */
export function isKnownText(text: Text): boolean {
  return text.key !== 'qedit.err.other';
}

// ---------------------------------------------------------------- field names

const languageName = (id: string) => LANGUAGES.find((l) => l.id === id)?.name ?? id;
const letter = (i: number) => OPTION_IDS[i] ?? String(i + 1);

/**
 * The name of the field at a path, for the list of problems, as one or more parts ("sub-question 2", "option
 * B"). `subIndex` turns a sub-question id of the key into its position.
 */
export function fieldName(path: DraftPath, subIndex: (id: string) => number = (id) => Number(id) - 1): Text[] {
  const [a, b, c, ...rest] = path;
  if (a === 'content' && b === 'subs' && isIndex(c)) {
    const inner =
      rest.length === 0
        ? []
        : rest[0] === 'score'
          ? [{ key: 'qedit.field.subScore' as const }]
          : fieldName(['content', ...rest]);
    return [{ key: 'qedit.field.sub', params: { n: c + 1 } }, ...inner];
  }
  if (a === 'key' && b === 'subs' && c !== undefined) {
    const inner = rest.length === 0 ? [] : fieldName(['key', ...rest]);
    return [{ key: 'qedit.field.sub', params: { n: subIndex(String(c)) + 1 } }, ...inner];
  }
  return [ownName(path)];
}

/** Names of the bank's fields and a sub-question's points. */
const TOP_NAMES: Readonly<Record<string, MessageKey>> = {
  difficulty: 'qedit.field.difficulty',
  default_score: 'qedit.field.defaultScore',
  tags: 'qedit.field.tags',
  knowledge_points: 'qedit.field.knowledgePoints',
  score: 'qedit.field.subScore',
};

type Namer = (c: string | number | undefined) => Text;
const named =
  (key: MessageKey): Namer =>
  () => ({ key });

/** Names of the content's fields; `c` is what follows the field in the path (an index, a language...). */
const CONTENT_NAMES: Readonly<Record<string, Namer>> = {
  stem: named('qedit.field.stem'),
  passage: named('qedit.field.passage'),
  options: (c) =>
    isIndex(c) ? { key: 'qedit.field.option', params: { id: letter(c) } } : { key: 'qedit.field.options' },
  blanks: named('qedit.field.blankCount'),
  dimension: named('qedit.field.dimension'),
  languages: named('qedit.field.languages'),
  starter: (c) =>
    c === undefined
      ? { key: 'qedit.field.starter' }
      : { key: 'qedit.field.starterOf', params: { lang: languageName(String(c)) } },
  samples: (c) => (isIndex(c) ? { key: 'qedit.field.sample', params: { n: c + 1 } } : { key: 'qedit.field.samples' }),
  time_limit_ms: named('qedit.field.timeLimit'),
  memory_limit_mb: named('qedit.field.memoryLimit'),
  audio: (c) => (c === 'play_limit' ? { key: 'qedit.field.playLimit' } : { key: 'qedit.field.audio' }),
  subs: named('qedit.field.subs'),
};

/** Names of the key's fields. */
const KEY_NAMES: Readonly<Record<string, Namer>> = {
  option: named('qedit.field.right'),
  options: named('qedit.field.right'),
  scores: (c) =>
    c === undefined ? { key: 'qedit.field.points' } : { key: 'qedit.field.optionPoints', params: { id: String(c) } },
  blanks: (c) => (isIndex(c) ? { key: 'qedit.field.blank', params: { n: c + 1 } } : { key: 'qedit.field.variants' }),
  rubric: named('qedit.field.rubric'),
  criteria: named('qedit.criteria'),
  checker: named('qedit.field.checker'),
  cases: named('qedit.field.cases'),
  reference: named('qedit.field.reference'),
  audio: named('qedit.field.audio'),
};

function ownName(path: DraftPath): Text {
  const [a, b, c] = path;
  const top = TOP_NAMES[String(a)];
  if (top) return { key: top };
  const namer = a === 'content' ? CONTENT_NAMES[String(b)] : a === 'key' ? KEY_NAMES[String(b)] : undefined;
  return namer ? namer(c) : { key: 'qedit.field.question' };
}
