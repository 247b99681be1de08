import { QuestionType, type AnswerValue } from '@examhall/contract';

/** A sub-question of a reading or listening question as stored. */
export interface SubQuestion {
  id: number;
  type: QuestionType;
  score: number;
  stem: string;
  options?: { id: string; content: string }[];
  blanks?: number;
}

/** What the candidate may see of a question, as stored. */
export interface QuestionContent {
  stem: string;
  options?: { id: string; content: string }[];
  blanks?: number;
  languages?: string[];
  samples?: { input: string; output: string }[];
  time_limit_ms?: number;
  memory_limit_mb?: number;
  passage?: string;
  subs?: SubQuestion[];
  audio?: { play_limit: number; duration_s: number };
  /** Dimension an evaluation item measures. */
  dimension?: string;
}

/** The answer key, as stored: it never leaves the server. */
export interface AnswerKey {
  option?: string;
  options?: string[];
  /** Accepted variants per blank. */
  blanks?: string[][];
  /** Points per option of a gradient choice. */
  scores?: Record<string, number>;
  subs?: Record<string, AnswerKey>;
  audio?: { key: string };
  rubric?: string;
  checker?: string;
  cases?: { input: string; output: string }[];
}

/** Types scored by a person (a grader), not automatically. */
export const MANUALLY_SCORED: ReadonlySet<number> = new Set([QuestionType.qa, QuestionType.programmingQa]);

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Points of a programming question from its latest judged submit: the share of hidden cases passed. */
export function scoreSubmit(points: number, submit: { passed: number | null; total: number } | undefined): number {
  if (!submit || !submit.passed || submit.total <= 0) return 0;
  return round2((points * submit.passed) / submit.total);
}

/** Blank answers compare after trimming, folding case and full-width characters, and collapsing spaces. */
export function normalizeBlank(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * Points for one answer of an automatically scored type.
 * Multiple (2) and indefinite (3): the exact set earns full points; a non-empty subset of the correct
 * options with no wrong one earns half; any wrong option earns nothing.
 * Fill in blank (4): each blank earns an equal share when it matches one of its accepted variants.
 * Gradient (11): the chosen option's points, scaled so the best option earns the question's points.
 * Reading (9) and listening (10): the sum of the sub-questions, each by its own type.
 * Programming (6) is scored from its judged submit (scoreSubmit), Q&A and programming Q&A by graders.
 */
export function scoreAnswer(
  type: number,
  key: AnswerKey,
  value: AnswerValue | null,
  points: number,
  subs: SubQuestion[] = [],
): number {
  if (!value) return 0;
  switch (type) {
    case QuestionType.single:
    case QuestionType.trueFalse:
      return value.kind === 'choice' && value.option === key.option ? points : 0;
    case QuestionType.multiple:
    case QuestionType.indefinite: {
      if (value.kind !== 'multi' || !key.options) return 0;
      const chosen = new Set(value.options);
      const correct = new Set(key.options);
      if (chosen.size === 0 || [...chosen].some((o) => !correct.has(o))) return 0;
      return chosen.size === correct.size ? points : round2(points / 2);
    }
    case QuestionType.fillBlank: {
      if (value.kind !== 'blanks' || !key.blanks || key.blanks.length === 0) return 0;
      const share = points / key.blanks.length;
      const right = key.blanks.filter((variants, i) => {
        const given = normalizeBlank(value.blanks[i] ?? '');
        return given !== '' && variants.some((v) => normalizeBlank(v) === given);
      }).length;
      return round2(share * right);
    }
    case QuestionType.gradient: {
      if (value.kind !== 'choice' || !key.scores) return 0;
      const best = Math.max(...Object.values(key.scores));
      const got = key.scores[value.option] ?? 0;
      return best > 0 ? round2((got / best) * points) : 0;
    }
    case QuestionType.reading:
    case QuestionType.listening: {
      if (value.kind !== 'subs') return 0;
      let total = 0;
      for (const sub of subs) {
        const subValue = value.subs[String(sub.id)] ?? null;
        total += scoreAnswer(sub.type, key.subs?.[String(sub.id)] ?? {}, subValue, sub.score);
      }
      return round2(total);
    }
    default:
      return 0;
  }
}

/** The answer kinds each type accepts. */
const KINDS: Record<number, AnswerValue['kind']> = {
  [QuestionType.single]: 'choice',
  [QuestionType.trueFalse]: 'choice',
  [QuestionType.gradient]: 'choice',
  [QuestionType.multiple]: 'multi',
  [QuestionType.indefinite]: 'multi',
  [QuestionType.fillBlank]: 'blanks',
  [QuestionType.qa]: 'text',
  [QuestionType.programming]: 'code',
  [QuestionType.programmingQa]: 'code',
  [QuestionType.reading]: 'subs',
  [QuestionType.listening]: 'subs',
};

/** Why an answer does not fit its question, or null when it does. */
export function answerProblem(type: number, content: QuestionContent, value: AnswerValue): string | null {
  const want = KINDS[type];
  if (value.kind !== want) return `answer: a type ${type} question takes a '${want}' answer`;
  const optionIds = new Set((content.options ?? []).map((o) => o.id));
  switch (value.kind) {
    case 'choice':
      return optionIds.has(value.option) ? null : 'answer.option: no such option';
    case 'multi':
      if (new Set(value.options).size !== value.options.length) return 'answer.options: an option is chosen twice';
      return value.options.every((o) => optionIds.has(o)) ? null : 'answer.options: no such option';
    case 'blanks':
      return value.blanks.length <= (content.blanks ?? 0) ? null : 'answer.blanks: more answers than blanks';
    case 'code':
      return !content.languages || content.languages.includes(value.language)
        ? null
        : 'answer.language: not offered by this question';
    case 'text':
      return null;
    case 'subs': {
      for (const [subId, subValue] of Object.entries(value.subs)) {
        const sub = content.subs?.find((s) => String(s.id) === subId);
        if (!sub) return `answer.subs.${subId}: no such sub-question`;
        const problem = answerProblem(sub.type, { stem: sub.stem, options: sub.options, blanks: sub.blanks }, subValue);
        if (problem) return problem.replace(/^answer/, `answer.subs.${subId}`);
      }
      return null;
    }
  }
}
