/** Shared mappings from the formats' notions (weights, feedback, gaps) to the contract's question kinds. */
import { OPTION_IDS, QUESTION_REGISTRY, type QuestionKind } from '@examhall/contract';
import type { RawDraft } from './draft.js';
import { problem } from './problems.js';
import { BLANK } from './richText.js';
import type { Problem, Where } from './types.js';

/** One answer of a choice question as a format gives it. */
export interface ChoiceAnswer {
  /** Option text (HTML). */
  html: string;
  /** Credit in percent of the question (negative: a penalty). */
  fraction: number;
  /** Feedback shown when chosen (HTML). */
  feedback?: string;
}

/** The options' ids: 'A', 'B', ... (past 'H' the contract reports the count). */
export const optionId = (i: number): string => OPTION_IDS[i] ?? String.fromCharCode(65 + i);

/** The texts of a true/false question's two options, true first (the contract's convention). */
export const TRUE_FALSE_OPTIONS = ['正确 True', '错误 False'] as const;

/**
 * A choice question from weighted answers. One pick (`multi` false): one full-credit answer and no other credit
 * makes a single choice, other positive credits a gradient question. Several picks: the positive answers are
 * the right ones (multiple with two or more, indefinite with one); the weights give way to the platform's rule.
 */
export function choiceQuestion(
  stem: string,
  answers: ChoiceAnswer[],
  multi: boolean,
  where: Where,
  problems: Problem[],
): RawDraft['question'] {
  const options = answers.map((a, i) => ({ id: optionId(i), content: a.html }));
  const content = { stem, options };
  if (answers.some((a) => a.fraction < 0) && !multi) problems.push(problem(where, 'negative_weights_dropped', 'info'));
  if (multi) {
    const right = answers.flatMap((a, i) => (a.fraction > 0 ? [optionId(i)] : []));
    const positive = answers.filter((a) => a.fraction > 0).map((a) => a.fraction);
    if (new Set(positive.map((f) => f.toFixed(3))).size > 1) problems.push(problem(where, 'weights_replaced', 'info'));
    return { kind: right.length >= 2 ? 'multiple' : 'indefinite', content, key: { options: right } };
  }
  const credited = answers.filter((a) => a.fraction > 0);
  const full = answers.findIndex((a) => a.fraction >= 100);
  if (credited.length <= 1 || full < 0) {
    const best = answers.reduce((b, a, i) => (a.fraction > (answers[b]?.fraction ?? -Infinity) ? i : b), 0);
    const pick = full >= 0 ? full : credited.length === 1 ? best : -1;
    return { kind: 'single', content, key: { option: pick >= 0 ? optionId(pick) : '' } };
  }
  const scores = Object.fromEntries(answers.map((a, i) => [optionId(i), Math.max(0, round5(a.fraction))]));
  return { kind: 'gradient', content, key: { scores } };
}

/** A true/false question. */
export function trueFalseQuestion(stem: string, truth: boolean): RawDraft['question'] {
  return {
    kind: 'true_false',
    content: { stem, options: TRUE_FALSE_OPTIONS.map((content, i) => ({ id: optionId(i), content })) },
    key: { option: truth ? 'A' : 'B' },
  };
}

/** Rounds to five decimals (Moodle's fractions have seven digits). */
export const round5 = (n: number): number => Math.round(n * 100_000) / 100_000;

/**
 * The general feedback with each answer's own feedback added after it, for kinds whose answers are not options (a
 * blank's accepted answers): their feedback cannot stay beside an option, so the explanation keeps it, labelled.
 */
export function foldFeedback(
  general: string | undefined,
  answers: { label: string; feedback?: string | undefined }[],
): string | undefined {
  const own = answers.filter((a) => a.feedback && a.feedback.trim() !== '');
  if (own.length === 0) return general;
  const list = own.map((a) => `<li>${a.label}: ${a.feedback!.trim()}</li>`).join('');
  return `${general ?? ''}<ul>${list}</ul>`;
}

/** Feedback per option from each answer's own, in the options' order ('A', 'B', ...), blank ones left out. */
export function optionFeedback(feedback: (string | undefined)[], prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  feedback.forEach((f, i) => {
    if (f !== undefined && f.trim() !== '') out[`${prefix}${optionId(i)}`] = f.trim();
  });
  return out;
}

/** Feedback per option of a gapped question's choices: its own options' when one choice made it, its subs' otherwise. */
export function gapFeedback(question: RawDraft['question'], gaps: Gap[]): Record<string, string> {
  const choices = (g: Gap) => (g.type === 'choice' ? g.answers.map((a) => a.feedback) : []);
  if (question.kind !== 'reading') return gaps.length === 1 && gaps[0] ? optionFeedback(choices(gaps[0])) : {};
  return Object.assign({}, ...gaps.map((g, i) => optionFeedback(choices(g), `${i + 1}.`))) as Record<string, string>;
}

/** A gap in a text: a choice among options, or a blank with its accepted answers. */
export type Gap =
  | { type: 'choice'; answers: ChoiceAnswer[]; multi: boolean; points: number }
  | { type: 'blank'; variants: string[]; points: number };

/** Instructions of a reading question made from a gapped text. */
export const GAPPED_TEXT_STEM = '<p>阅读短文，完成各小题。 / Read the text and answer each part.</p>';

/**
 * A gapped text (Moodle cloze, QTI inline choices) as a question: only blanks make a fill-in-blank question whose
 * stem marks each gap with ___; one choice alone makes a choice question; otherwise a reading question whose
 * passage numbers the gaps and whose sub-questions are the gaps.
 */
export function gappedQuestion(parts: string[], gaps: Gap[], where: Where, problems: Problem[]): RawDraft['question'] {
  if (gaps.every((g) => g.type === 'blank')) {
    const stem = parts.reduce((s, p, i) => (i === 0 ? p : `${s}${BLANK}${p}`), '');
    return {
      kind: 'fill_blank',
      content: { stem, blanks: gaps.length },
      key: { blanks: gaps.map((g) => (g.type === 'blank' ? g.variants : [])) },
    };
  }
  const only = gaps[0];
  if (gaps.length === 1 && only?.type === 'choice') {
    // One choice in a sentence is a choice question whose stem shows where the answer goes.
    const q = choiceQuestion(parts.join(BLANK), only.answers, only.multi, where, problems);
    return q;
  }
  const passage = parts.reduce((s, p, i) => (i === 0 ? p : `${s}<u>（${i}）</u>${p}`), '');
  const subs: unknown[] = [];
  const keys: Record<string, unknown> = {};
  gaps.forEach((g, i) => {
    const id = i + 1;
    if (g.type === 'blank') {
      subs.push({
        id,
        type: QUESTION_REGISTRY.fill_blank.type,
        score: g.points,
        stem: `<p>（${id}）${BLANK}</p>`,
        blanks: 1,
      });
      keys[id] = { blanks: [g.variants] };
      return;
    }
    const q = choiceQuestion(`（${id}）`, g.answers, g.multi, where, problems);
    const c = q.content as { options: unknown };
    const type = QUESTION_REGISTRY[q.kind as QuestionKind].type;
    subs.push({ id, type, score: g.points, stem: `<p>（${id}）</p>`, options: c.options });
    keys[id] = q.key;
  });
  return { kind: 'reading', content: { stem: GAPPED_TEXT_STEM, passage, subs }, key: { subs: keys } };
}
