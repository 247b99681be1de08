import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QUESTION_TYPES } from '../../enums.js';
import { StemField, wrongAnswerKind, type AnyQuestionSpec, type QuestionSpec } from '../common.js';
import { subQuestions } from '../compound.js';
import {
  candidateView,
  parseQuestion,
  QUESTION_KINDS,
  QUESTION_REGISTRY,
  QUESTION_TYPE_DISPLAY_ORDER,
  scoreQuestion,
  SUB_QUESTION_TYPES,
} from '../index.js';
import { compoundKinds, kindExamples, KIND_SPECS, kindIndex, KINDS, SIMPLE_KINDS } from './index.js';
import { singleExamples } from './single.js';

/**
 * A twelfth kind that exists only in this test: a number answered in a blank, type 12, which may be a sub-question.
 * It is one entry, as a kind's file in this folder is: nothing else names it.
 */
const NumberContent = z.object({ stem: StemField });
const NumberKey = z.object({ value: z.number() });
const dummy = {
  kind: 'number',
  type: 12 as never,
  label: { 'zh-CN': '数值题', 'en-US': 'Number' },
  sections: ['linetest', 'major'],
  displayOrder: 12,
  content: NumberContent,
  key: NumberKey,
  body: z.object({ kind: z.literal('number'), content: NumberContent, key: NumberKey }),
  answer: 'blanks',
  scoring: 'auto',
  shuffleOptions: false,
  code: false,
  sub: true,
  defaultScore: 3,
  responses: () => null,
  score: (b, value, points) => (value?.kind === 'blanks' && Number(value.blanks[0]) === b.key.value ? points : 0),
  answerProblem: (_c, value) => wrongAnswerKind('number', 'blanks', value),
  candidateView: (c) => ({ stem: c.stem, blanks: 1 }),
} satisfies QuestionSpec<'number', z.infer<typeof NumberContent>, z.infer<typeof NumberKey>>;

describe('question kinds, one file each', () => {
  it('derives the product lists from the kinds: the specification’s display order and sub-question types', () => {
    expect(QUESTION_TYPE_DISPLAY_ORDER).toEqual([1, 2, 11, 3, 7, 4, 10, 9, 5, 8, 6]);
    expect(SUB_QUESTION_TYPES).toEqual([1, 2, 3, 4, 7, 11]);
    expect(QUESTION_KINDS).toEqual([
      'single',
      'multiple',
      'indefinite',
      'fill_blank',
      'qa',
      'programming',
      'true_false',
      'programming_qa',
      'reading',
      'listening',
      'gradient',
      'evaluation',
    ]);
    expect(new Set(KIND_SPECS.map((s) => s.type))).toEqual(new Set(QUESTION_TYPES));
    // Kinds that share a type id (gradient and evaluation) take the same answer, so the type tells the answer.
    for (const s of KIND_SPECS) expect(KINDS.answerOfType(s.type), s.kind).toBe(s.answer);
    expect(QUESTION_TYPES.filter((t) => KINDS.judged(t))).toEqual([6]);
  });

  it('every kind’s examples are questions of the kind, and their candidate view holds no key field', () => {
    for (const spec of KIND_SPECS) {
      for (const example of kindExamples(spec.kind)) {
        const parsed = parseQuestion(spec.kind, example.content, example.key);
        expect(parsed, spec.kind).toMatchObject({ ok: true });
        if (!parsed.ok) continue;
        const view = JSON.stringify(candidateView(parsed.body));
        for (const field of ['"key"', '"cases"', '"reference"', '"rubric"', '"scores"', '"dimension"'])
          expect(view, `${spec.kind} ${field}`).not.toContain(field);
      }
    }
  });

  it('labels every kind in both languages, each label once', () => {
    for (const lang of ['zh-CN', 'en-US'] as const) {
      const labels = KIND_SPECS.map((s) => s.label[lang]);
      expect(new Set(labels).size, lang).toBe(labels.length);
    }
  });

  it('a twelfth kind in a temporary list is derived everywhere, with no edit outside its entry', () => {
    const subs = subQuestions([...SIMPLE_KINDS, dummy]);
    const specs = [...SIMPLE_KINDS, dummy, ...compoundKinds(subs)];
    const index = kindIndex(specs);

    expect(index.kinds).toContain('number');
    expect(index.kinds.at(-1)).toBe('number');
    expect(index.displayOrder.at(-1)).toBe(12);
    expect(index.subTypes).toEqual([1, 2, 3, 4, 7, 11, 12]);
    expect(index.kindOfStored(12, 'major')).toBe('number');
    expect(index.kindOfStored(12, 'evaluation')).toBeNull();
    expect(index.byKind.get('number')).toBe(dummy);
    expect(index.shuffled.has('number')).toBe(false);
    expect(index.code).not.toContain('number');

    // A reading question built over the temporary list takes the new kind as a sub-question, checks its key with
    // the kind's own schema, scores it with the kind's own rule and shows candidates the kind's own view.
    // The entry as code over all kinds sees it (content and key as the kind's own schemas read them).
    const reading: AnyQuestionSpec = index.byKind.get('reading')!;
    const question = {
      kind: 'reading',
      content: { stem: '<p>Read</p>', passage: '<p>p</p>', subs: [{ id: 1, type: 12, score: 4, stem: '<p>6×7</p>' }] },
      key: { subs: { '1': { value: 42 } } },
    };
    const parsed = reading.body.safeParse(question);
    expect(parsed.success).toBe(true);
    expect(reading.body.safeParse({ ...question, key: { subs: { '1': { value: 'x' } } } }).success).toBe(false);
    const body = parsed.data as { content: unknown; key: unknown };
    expect(reading.score(body, { kind: 'subs', subs: { '1': { kind: 'blanks', blanks: ['42'] } } }, 8)).toBe(8);
    expect(reading.score(body, { kind: 'subs', subs: { '1': { kind: 'blanks', blanks: ['41'] } } }, 8)).toBe(0);
    expect(reading.candidateView(body.content).subs).toEqual([
      { id: 1, type: 12, order_num: 1, score: 4, stem: '<p>6×7</p>', blanks: 1 },
    ]);

    // The product's own list is untouched: the temporary kind is not a kind of the product.
    expect(QUESTION_KINDS).not.toContain('number');
    expect(parseQuestion('reading', question.content, question.key).ok).toBe(false);
  });

  it('the registry answers each kind’s facts from its entry', () => {
    expect([...kindIndex(KIND_SPECS).shuffled].sort()).toEqual(['indefinite', 'multiple', 'single']);
    expect(kindIndex(KIND_SPECS).code).toEqual(['programming', 'programming_qa']);
    expect(QUESTION_REGISTRY.true_false.defaultScore).toBe(2);
    const single = singleExamples()[0]!;
    const parsed = parseQuestion('single', single.content, single.key);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(scoreQuestion(parsed.body, { kind: 'choice', option: single.key.option }, 5)).toBe(5);
  });
});
