import { describe, expect, it } from 'vitest';
import {
  answerProblem,
  candidateView,
  judgedScore,
  kindOfStored,
  letterOptions,
  normalizeBlank,
  parseQuestion,
  QUESTION_KINDS,
  QUESTION_REGISTRY,
  type QuestionBody,
  scoreQuestion,
  sectionProblem,
  type QuestionBodyInput,
  type QuestionKind,
} from './index.js';
import { QuestionType, SECTIONS } from '../enums.js';

const opts = letterOptions;

/** One valid question of every kind, shaped like the stored demo rows. */
const VALID: { [K in QuestionKind]: Extract<QuestionBodyInput, { kind: K }> } = {
  single: {
    kind: 'single',
    content: { stem: '<p>2, 4, 8, ?</p>', options: opts('24', '16', '30') },
    key: { option: 'B' },
  },
  multiple: {
    kind: 'multiple',
    content: { stem: '<p>Primes?</p>', options: opts('2', '9', '11', '15') },
    key: { options: ['A', 'C'] },
  },
  indefinite: {
    kind: 'indefinite',
    content: { stem: '<p>On the Yangtze?</p>', options: opts('Wuhan', 'Nanjing', 'Xi’an', 'Chongqing') },
    key: { options: ['A', 'B', 'D'] },
  },
  fill_blank: {
    kind: 'fill_blank',
    content: { stem: '<p>___ not found, ___ server error</p>', blanks: 2 },
    key: { blanks: [['404'], ['500', 'server error']] },
  },
  qa: { kind: 'qa', content: { stem: '<p>ACID?</p>' }, key: { rubric: '2.5 points each' } },
  programming: {
    kind: 'programming',
    content: {
      stem: '<p>a+b</p>',
      languages: ['c', 'python'],
      starter: { python: 'print()' },
      samples: [{ input: '1 2\n', output: '3\n' }],
      time_limit_ms: 1000,
      memory_limit_mb: 256,
    },
    key: {
      checker: 'default',
      cases: [{ input: '3 4\n', output: '7\n', name: '1.in' }],
      reference: { language: 'python', source: 'print(sum(map(int, input().split())))' },
    },
  },
  true_false: {
    kind: 'true_false',
    content: { stem: '<p>Every square is a rectangle.</p>', options: opts('True', 'False') },
    key: { option: 'A' },
  },
  programming_qa: {
    kind: 'programming_qa',
    content: { stem: '<p>Palindrome?</p>', languages: ['cpp', 'java'] },
    key: { rubric: 'two pointers' },
  },
  reading: {
    kind: 'reading',
    content: {
      stem: '<p>Read.</p>',
      passage: '<p>Text</p>',
      subs: [
        { id: 1, type: 1, score: 3, stem: '<p>How?</p>', options: opts('Email', 'Phone') },
        { id: 2, type: 2, score: 4, stem: '<p>Which?</p>', options: opts('a', 'b', 'c') },
        { id: 3, type: 4, score: 2, stem: '<p>Fill ___</p>', blanks: 1 },
      ],
    },
    key: { subs: { '1': { option: 'B' }, '2': { options: ['A', 'B'] }, '3': { blanks: [['x']] } } },
  },
  listening: {
    kind: 'listening',
    content: {
      stem: '<p>Listen.</p>',
      audio: { play_limit: 2, duration_s: 3.5 },
      subs: [{ id: 1, type: 1, score: 4, stem: '<p>Beeps?</p>', options: opts('3', '5', '8') }],
    },
    key: { audio: { key: 'demo/listening-beeps.wav' }, subs: { '1': { option: 'B' } } },
  },
  gradient: {
    kind: 'gradient',
    content: { stem: '<p>Disagreement?</p>', options: opts('Discuss', 'Lead decides', 'Own plan') },
    key: { scores: { A: 5, B: 3, C: 1 } },
  },
  evaluation: {
    kind: 'evaluation',
    content: { stem: '<p>I enjoy teams.</p>', options: opts('Agree', 'Neutral', 'Disagree'), dimension: 'teamwork' },
    key: { scores: { A: 3, B: 2, C: 1 } },
  },
};

/** A copy of a valid question with a change applied. */
function variant<K extends QuestionKind>(kind: K, change: (b: Extract<QuestionBodyInput, { kind: K }>) => void) {
  const copy = structuredClone(VALID[kind]);
  change(copy);
  return copy;
}

/** The problems of a question that must not parse. */
function problems(body: QuestionBodyInput): string[] {
  const parsed = parseQuestion(body.kind, body.content, body.key);
  if (parsed.ok) throw new Error(`expected ${body.kind} to be refused`);
  return parsed.problems;
}

/** The typed body of a question that must parse. */
function parse(body: QuestionBodyInput): QuestionBody {
  const parsed = parseQuestion(body.kind, body.content, body.key);
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.body;
}

describe('question schemas', () => {
  it.each([...QUESTION_KINDS])('accepts a valid %s question', (kind) => {
    expect(parse(VALID[kind]).kind).toBe(kind);
  });

  it('names the unknown kind', () => {
    expect(parseQuestion('essay', {}, {})).toMatchObject({ ok: false, problems: [expect.stringMatching(/^kind: /)] });
  });

  it('refuses choice questions with too few, too many, duplicate or badly named options', () => {
    expect(problems(variant('single', (b) => (b.content.options = opts('only'))))).toEqual([
      'content.options: at least 2 options',
      'key.option: there is no option B',
    ]);
    expect(
      problems(variant('multiple', (b) => (b.content.options = [...opts(...'abcdefgh'), { id: 'H', content: 'i' }]))),
    ).toEqual(['content.options: at most 8 options']);
    expect(
      problems(variant('single', (b) => (b.content.options = [...opts('x', 'y'), { id: 'B', content: 'z' }]))),
    ).toEqual(['content.options.2.id: option id B is used twice']);
    expect(problems(variant('single', (b) => (b.content.options[0]!.id = 'Z')))[0]).toMatch(
      /^content\.options\.0\.id: an option id is a letter/,
    );
    expect(problems(variant('single', (b) => (b.content.stem = '')))).toEqual(['content.stem: the stem is empty']);
  });

  it('refuses keys naming options that do not exist', () => {
    expect(problems(variant('single', (b) => (b.key.option = 'D')))).toEqual(['key.option: there is no option D']);
    expect(problems(variant('true_false', (b) => (b.key.option = 'C')))).toEqual(['key.option: there is no option C']);
    expect(problems(variant('multiple', (b) => (b.key.options = ['A', 'E'])))).toEqual([
      'key.options.1: there is no option E',
    ]);
    expect(problems(variant('indefinite', (b) => (b.key.options = ['A', 'A'])))).toEqual([
      'key.options.1: option A is listed twice',
    ]);
    expect(problems(variant('indefinite', (b) => (b.key.options = [])))).toEqual([
      'key.options: choose at least one right option',
    ]);
    expect(problems(variant('multiple', (b) => (b.key.options = ['A'])))).toEqual([
      'key.options: choose at least 2 right options',
    ]);
  });

  it('needs exactly two options for true/false', () => {
    expect(problems(variant('true_false', (b) => (b.content.options = opts('a', 'b', 'c'))))).toEqual([
      'content.options: exactly 2 options',
    ]);
  });

  it('checks fill-in-blank keys against the blanks', () => {
    expect(problems(variant('fill_blank', (b) => (b.content.blanks = 3)))).toEqual([
      'key.blanks: the question has 3 blank(s) but the key gives answers for 2',
    ]);
    expect(problems(variant('fill_blank', (b) => (b.key.blanks = [['404'], []])))).toEqual([
      'key.blanks.1: give at least one accepted answer for this blank',
    ]);
    expect(problems(variant('fill_blank', (b) => (b.key.blanks = [['404'], ['  ']])))).toEqual([
      'key.blanks.1.0: an accepted answer is empty',
    ]);
    expect(problems(variant('fill_blank', (b) => (b.content.blanks = 0)))).toContain(
      'content.blanks: at least one blank',
    );
  });

  it('needs points for every option of gradient and evaluation items', () => {
    expect(problems(variant('gradient', (b) => (b.key.scores = { A: 5, B: 3 })))).toEqual([
      'key.scores.C: option C has no points',
    ]);
    expect(problems(variant('evaluation', (b) => (b.key.scores = { A: 1, B: 1, C: 1, D: 1 })))).toEqual([
      'key.scores.D: there is no option D',
    ]);
    expect(problems(variant('gradient', (b) => (b.key.scores = { A: 0, B: 0, C: 0 })))).toEqual([
      'key.scores: at least one option must earn points',
    ]);
    expect(problems(variant('gradient', (b) => (b.key.scores = { A: -1, B: 3, C: 1 })))).toEqual([
      'key.scores.A: points are 0 or more',
    ]);
  });

  it('needs a dimension for evaluation items', () => {
    expect(problems(variant('evaluation', (b) => (b.content.dimension = ' ')))).toEqual([
      'content.dimension: name the dimension this item measures',
    ]);
    expect(
      problems(
        variant('evaluation', (b) => {
          delete (b.content as { dimension?: string }).dimension;
        }),
      ),
    ).toEqual(['content.dimension: name the dimension this item measures']);
  });

  it('checks programming languages, starter code, limits, checker, cases and reference', () => {
    expect(problems(variant('programming', (b) => (b.content.languages = [])))).toContain(
      'content.languages: offer at least one language',
    );
    expect(problems(variant('programming', (b) => (b.content.languages = ['cobol' as 'c'])))).toEqual([
      'content.languages.0: not a language the judge knows',
    ]);
    expect(problems(variant('programming', (b) => (b.content.starter = { java: 'class Main {}' })))).toEqual([
      'content.starter.java: java is not offered',
    ]);
    expect(problems(variant('programming', (b) => (b.content.time_limit_ms = 50)))).toEqual([
      'content.time_limit_ms: at least 100 ms',
    ]);
    expect(problems(variant('programming', (b) => (b.content.memory_limit_mb = 1e6)))).toEqual([
      'content.memory_limit_mb: at most 1024 MB',
    ]);
    expect(problems(variant('programming', (b) => (b.key.cases = [])))).toEqual([
      'key.cases: add at least one hidden case',
    ]);
    expect(problems(variant('programming', (b) => (b.key.checker = 'fuzzy')))[0]).toMatch(/^key\.checker: /);
    expect(problems(variant('programming', (b) => (b.key.reference = { language: 'python', source: '' })))).toEqual([
      'key.reference.source: the reference solution is empty',
    ]);
    for (const checker of ['exact', 'lines', 'float', 'float:1e-3', 'float:0.1:0.01']) {
      expect(parse(variant('programming', (b) => (b.key.checker = checker))).kind).toBe('programming');
    }
    const custom = parse(variant('programming', (b) => (b.key.checker = { language: 'cpp', source: 'int main(){}' })));
    expect(custom.kind === 'programming' && custom.key.checker).toEqual({ language: 'cpp', source: 'int main(){}' });
  });

  it('fills in the limits and checker of programming rows stored without them', () => {
    const body = parse({
      kind: 'programming',
      content: { stem: '<p>a+b</p>', languages: ['c'] },
      key: { cases: [{ input: '1 1', output: '2' }] },
    });
    expect(body.kind === 'programming' && [body.content.time_limit_ms, body.content.memory_limit_mb]).toEqual([
      1000, 256,
    ]);
    expect(body.kind === 'programming' && body.key.checker).toBe('default');
  });

  it('checks reading and listening sub-questions and their keys', () => {
    expect(problems(variant('reading', (b) => (b.content.subs = [])))[0]).toBe(
      'content.subs: add at least one sub-question',
    );
    expect(problems(variant('reading', (b) => (b.content.subs[1]!.id = 1)))[0]).toBe(
      'content.subs.1.id: sub-question id 1 is used twice',
    );
    expect(
      problems(variant('reading', (b) => ((b.content.subs[0] as { type: number }).type = QuestionType.qa)))[0],
    ).toMatch(/^content\.subs\.0\.type: a sub-question is single/);
    expect(problems(variant('reading', (b) => delete b.key.subs['2']))).toEqual([
      'key.subs.2: sub-question 2 has no key',
    ]);
    expect(problems(variant('reading', (b) => (b.key.subs['9'] = { option: 'A' })))).toEqual([
      'key.subs.9: there is no sub-question 9',
    ]);
    expect(problems(variant('reading', (b) => (b.key.subs['1'] = { option: 'C' })))).toEqual([
      'key.subs.1.option: there is no option C',
    ]);
    expect(problems(variant('reading', (b) => (b.key.subs['2'] = { option: 'A' })))).toEqual([
      'key.subs.2.options: Invalid input: expected array, received undefined',
    ]);
    expect(problems(variant('reading', (b) => (b.key.subs['3'] = { blanks: [['x'], ['y']] })))).toEqual([
      'key.subs.3.blanks: the question has 1 blank(s) but the key gives answers for 2',
    ]);
    expect(problems(variant('listening', (b) => (b.content.audio.play_limit = 0)))).toEqual([
      'content.audio.play_limit: at least one play',
    ]);
    expect(problems(variant('listening', (b) => (b.content.audio.play_limit = 11)))).toEqual([
      'content.audio.play_limit: at most 10 plays',
    ]);
    expect(problems(variant('listening', (b) => (b.key.audio.key = '')))).toEqual(['key.audio.key: upload the audio']);
  });

  it('maps stored types and sections to kinds, and keeps evaluation items in their section', () => {
    expect(kindOfStored(QuestionType.gradient, 'evaluation')).toBe('evaluation');
    expect(kindOfStored(QuestionType.gradient, 'major')).toBe('gradient');
    expect(kindOfStored(QuestionType.single, 'evaluation')).toBeNull();
    expect(kindOfStored(99, 'linetest')).toBeNull();
    for (const kind of QUESTION_KINDS) {
      const spec = QUESTION_REGISTRY[kind];
      expect(spec.kind).toBe(kind);
      for (const section of SECTIONS) {
        expect(kindOfStored(spec.type, section) === kind).toBe(sectionProblem(kind, section) === null);
      }
    }
    expect(sectionProblem('single', 'evaluation')).toContain('evaluation items only');
    expect(sectionProblem('evaluation', 'major')).toContain('evaluation section');
  });
});

describe('scoring through the registry', () => {
  const body = (kind: QuestionKind) => parse(VALID[kind]);

  it('scores single and true/false by the one right option', () => {
    expect(scoreQuestion(body('single'), { kind: 'choice', option: 'B' }, 5)).toBe(5);
    expect(scoreQuestion(body('single'), { kind: 'choice', option: 'A' }, 5)).toBe(0);
    expect(scoreQuestion(body('single'), null, 5)).toBe(0);
    expect(scoreQuestion(body('true_false'), { kind: 'choice', option: 'A' }, 2)).toBe(2);
    expect(scoreQuestion(body('true_false'), { kind: 'multi', options: ['A'] }, 2)).toBe(0);
  });

  it('gives multiple and indefinite full points for the exact set, half for a clean subset, nothing with a wrong pick', () => {
    for (const kind of ['multiple', 'indefinite'] as const) {
      const b = parse(variant(kind, (q) => (q.key.options = ['A', 'C', 'D'])));
      expect(scoreQuestion(b, { kind: 'multi', options: ['D', 'A', 'C'] }, 6)).toBe(6);
      expect(scoreQuestion(b, { kind: 'multi', options: ['A'] }, 6)).toBe(3);
      expect(scoreQuestion(b, { kind: 'multi', options: ['A', 'B'] }, 6)).toBe(0);
      expect(scoreQuestion(b, { kind: 'multi', options: [] }, 6)).toBe(0);
    }
  });

  it('scores blanks by equal shares with accepted variants, ignoring case, width and spacing', () => {
    const b = body('fill_blank');
    expect(scoreQuestion(b, { kind: 'blanks', blanks: ['４０４', ' 500 '] }, 4)).toBe(4);
    expect(scoreQuestion(b, { kind: 'blanks', blanks: ['404', 'Server   Error'] }, 4)).toBe(4);
    expect(scoreQuestion(b, { kind: 'blanks', blanks: ['404'] }, 4)).toBe(2);
    expect(scoreQuestion(b, { kind: 'blanks', blanks: ['', ''] }, 4)).toBe(0);
    expect(normalizeBlank('  ＡＢＣ  d ')).toBe('abc d');
  });

  it('scales gradient choices to the question’s points and adds evaluation points to the dimension', () => {
    expect(scoreQuestion(body('gradient'), { kind: 'choice', option: 'A' }, 10)).toBe(10);
    expect(scoreQuestion(body('gradient'), { kind: 'choice', option: 'B' }, 10)).toBe(6);
    expect(scoreQuestion(body('evaluation'), { kind: 'choice', option: 'B' }, 10)).toBe(2);
    expect(scoreQuestion(body('evaluation'), null, 10)).toBe(0);
  });

  it('adds up reading and listening sub-questions with partial credit, scaled to the question’s points', () => {
    const value = {
      kind: 'subs' as const,
      subs: {
        '1': { kind: 'choice' as const, option: 'B' },
        '2': { kind: 'multi' as const, options: ['A'] },
        '3': { kind: 'blanks' as const, blanks: ['X '] },
      },
    };
    // 3 + 2 (half of 4) + 2 of 9 sub points.
    expect(scoreQuestion(body('reading'), value, 9)).toBe(7);
    expect(scoreQuestion(body('reading'), value, 18)).toBe(14);
    expect(scoreQuestion(body('reading'), { kind: 'subs', subs: {} }, 9)).toBe(0);
    expect(scoreQuestion(body('listening'), { kind: 'subs', subs: { '1': { kind: 'choice', option: 'B' } } }, 4)).toBe(
      4,
    );
  });

  it('leaves Q&A, programming Q&A and programming to graders and the judge', () => {
    expect(scoreQuestion(body('qa'), { kind: 'text', html: 'x', files: [] }, 10)).toBeNull();
    expect(scoreQuestion(body('programming_qa'), { kind: 'code', language: 'cpp', code: '' }, 10)).toBeNull();
    expect(scoreQuestion(body('programming'), { kind: 'code', language: 'c', code: '' }, 10)).toBeNull();
    expect(QUESTION_REGISTRY.programming.scoring).toBe('judge');
    expect(judgedScore(20, { passed: 2, total: 3 })).toBe(13.33);
    expect(judgedScore(20, { passed: null, total: 3 })).toBe(0);
    expect(judgedScore(20, undefined)).toBe(0);
  });
});

describe('answer checks', () => {
  it('accepts answers that fit and names what does not', () => {
    const single = parse(VALID.single);
    expect(answerProblem(single, { kind: 'choice', option: 'A' })).toBeNull();
    expect(answerProblem(single, { kind: 'choice', option: 'Z' })).toBe('answer.option: no such option');
    expect(answerProblem(single, { kind: 'multi', options: ['A'] })).toContain("takes a 'choice' answer");
    expect(answerProblem(parse(VALID.multiple), { kind: 'multi', options: ['A', 'A'] })).toContain('twice');
    expect(answerProblem(parse(VALID.fill_blank), { kind: 'blanks', blanks: ['a', 'b', 'c'] })).toContain(
      'more answers',
    );
    expect(answerProblem(parse(VALID.programming), { kind: 'code', language: 'java', code: '' })).toContain(
      'not offered',
    );
    expect(answerProblem(parse(VALID.qa), { kind: 'text', html: '', files: [] })).toBeNull();
    const reading = parse(VALID.reading);
    expect(answerProblem(reading, { kind: 'subs', subs: { '1': { kind: 'choice', option: 'A' } } })).toBeNull();
    expect(answerProblem(reading, { kind: 'subs', subs: { '7': { kind: 'choice', option: 'A' } } })).toContain(
      'no such sub-question',
    );
    expect(answerProblem(reading, { kind: 'subs', subs: { '1': { kind: 'choice', option: 'Q' } } })).toBe(
      'answer.subs.1.option: no such option',
    );
    for (const kind of QUESTION_KINDS) {
      const wrong = QUESTION_REGISTRY[kind].answer === 'text' ? 'choice' : 'text';
      const value =
        wrong === 'text' ? { kind: 'text' as const, html: '', files: [] } : { kind: 'choice' as const, option: 'A' };
      expect(answerProblem(parse(VALID[kind]), value)).toMatch(/^answer: /);
    }
  });
});

describe('candidate view', () => {
  const KEY_FIELDS = ['option', 'scores', 'rubric', 'checker', 'cases', 'reference', 'key', 'dimension', 'variants'];

  /** Every property name in a value, at any depth. */
  function names(value: unknown, into = new Set<string>()): Set<string> {
    if (Array.isArray(value)) value.forEach((v) => names(v, into));
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) {
        into.add(k);
        names(v, into);
      }
    return into;
  }

  it.each([...QUESTION_KINDS])('shows no key field of a %s question', (kind) => {
    const b = parse(VALID[kind]);
    const view = candidateView(b);
    const seen = names(view);
    for (const field of KEY_FIELDS) expect(seen.has(field), `${kind} shows ${field}`).toBe(false);
    // Nothing of the key's values either: the hidden case, the audio object key, the rubric.
    const text = JSON.stringify(view);
    expect(text).not.toContain('7\\n');
    expect(text).not.toContain('listening-beeps');
    expect(text).not.toContain('points each');
    expect(view.stem).toBe(b.content.stem);
  });

  it('shows what each type needs', () => {
    // A programming question's whole content is for candidates: the view is the content, and no key field.
    expect(candidateView(parse(VALID.programming))).toEqual(VALID.programming.content);
    expect(candidateView(parse(VALID.listening))).toMatchObject({ audio: { play_limit: 2, duration_s: 3.5 } });
    expect(candidateView(parse(VALID.reading)).subs?.map((s) => [s.id, s.order_num, s.type])).toEqual([
      [1, 1, 1],
      [2, 2, 2],
      [3, 3, 4],
    ]);
    expect(candidateView(parse(VALID.fill_blank))).toEqual({ stem: VALID.fill_blank.content.stem, blanks: 2 });
  });

  it('drops unknown fields stored in content', () => {
    const b = parse({ ...VALID.single, content: { ...VALID.single.content, answer: 'B' } as never });
    expect(names(candidateView(b)).has('answer')).toBe(false);
  });
});
