import { parseQuestion, QUESTION_KINDS, type QuestionKind } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import {
  bodyOf,
  convertBody,
  convertDraft,
  emptyDraft,
  emptySub,
  LIKERT_OPTIONS,
  nextSubId,
  subAsBody,
  subFromBody,
  SUB_KINDS,
  type QuestionDraft,
  type SubDraft,
  type SubKeyDraft,
} from './drafts.js';
import { validateDraft } from './problems.js';

const texts = (subs: { options?: { id: string; content: string }[] }) =>
  subs.options?.forEach((o) => (o.content = `option ${o.id}`));

/** What an author fills in on a sub-question of each kind. */
function fillSub(sub: SubDraft, key: SubKeyDraft): void {
  sub.stem = '<p>sub</p>';
  texts(sub);
  if (sub.type === 1 || sub.type === 7) key.option = 'A';
  if (sub.type === 2) key.options = ['A', 'B'];
  if (sub.type === 3) key.options = ['A'];
  if (sub.type === 4) key.blanks = [['x']];
}

/** The required fields of each kind, filled as an author would. */
function fill(d: QuestionDraft): QuestionDraft {
  d.content.stem = '<p>题干 stem</p>';
  switch (d.kind) {
    case 'single':
    case 'true_false':
      texts(d.content);
      d.key.option = 'B';
      break;
    case 'multiple':
      texts(d.content);
      d.key.options = ['A', 'C'];
      break;
    case 'indefinite':
      texts(d.content);
      d.key.options = ['D'];
      break;
    case 'gradient':
      texts(d.content);
      break;
    case 'evaluation':
      d.content.dimension = 'teamwork';
      break;
    case 'fill_blank':
      d.key.blanks = [['404']];
      break;
    case 'qa':
    case 'programming_qa':
      break;
    case 'programming':
      d.key.cases = [{ name: '1', input: '1 2\n', output: '3\n' }];
      break;
    case 'reading':
      d.content.passage = '<p>passage</p>';
      d.content.subs.forEach((s) => fillSub(s, d.key.subs[String(s.id)]!));
      break;
    case 'listening':
      d.content.audio.duration_s = 3.5;
      d.key.audio.key = 'bank/audio/abc.wav';
      d.content.subs.forEach((s) => fillSub(s, d.key.subs[String(s.id)]!));
      break;
  }
  return d;
}

describe('a new question of each kind', () => {
  it.each(QUESTION_KINDS)('%s: is refused while empty and accepted by the server schema once filled', (kind) => {
    const empty = emptyDraft(kind);
    if (kind !== 'qa' && kind !== 'programming_qa') expect(validateDraft(empty)).not.toEqual([]);
    const filled = fill(emptyDraft(kind));
    expect(validateDraft(filled)).toEqual([]);
    const body = bodyOf(filled);
    expect(parseQuestion(body.kind, body.content, body.key)).toMatchObject({ ok: true });
  });

  it('gets the bank defaults: difficulty 3, no tags, points by kind', () => {
    const d = emptyDraft('programming');
    expect(d).toMatchObject({ difficulty: 3, tags: [], knowledge_points: [], default_score: 20 });
  });

  it('evaluation items start with a five-point scale worth 5 down to 1', () => {
    const d = emptyDraft('evaluation');
    if (d.kind !== 'evaluation') throw new Error('kind');
    expect(d.content.options).toHaveLength(5);
    expect(d.key.scores).toEqual({ A: 5, B: 4, C: 3, D: 2, E: 1 });
  });
});

describe('sub-questions', () => {
  it.each(SUB_KINDS)('%s: a sub-question round-trips through its kind body', (kind) => {
    const { sub, key } = emptySub(7, kind);
    const body = subAsBody(sub, key);
    expect(body.kind).toBe(kind);
    expect(subFromBody(7, sub.score, body)).toEqual({ sub, key });
  });

  it('get the next free id', () => {
    expect(nextSubId([])).toBe(1);
    expect(nextSubId([emptySub(3, 'single').sub, emptySub(1, 'single').sub])).toBe(4);
  });
});

describe('changing the kind', () => {
  const filled = (kind: QuestionKind) => fill(emptyDraft(kind));

  it('keeps the stem, the options and the right answers between choice kinds', () => {
    const single = filled('single');
    const multiple = convertDraft(single, 'indefinite');
    expect(multiple.content.stem).toBe(single.content.stem);
    expect(multiple.kind === 'indefinite' && multiple.key.options).toEqual(['B']);
    expect(validateDraft(multiple)).toEqual([]);
    const back = convertBody(bodyOf(multiple), 'single');
    expect(back.key).toEqual({ option: 'B' });
  });

  it('gives points when a choice becomes a gradient question, and keeps the metadata', () => {
    const d = { ...filled('multiple'), tags: ['t'], default_score: 8 };
    const g = convertDraft(d, 'gradient');
    expect(g.kind === 'gradient' && g.key.scores).toEqual({ A: 4, B: 3, C: 2, D: 1 });
    expect(g).toMatchObject({ tags: ['t'], default_score: 8 });
    expect(validateDraft(g)).toEqual([]);
  });

  it('keeps languages and starter code between the code kinds, and sub-questions between reading and listening', () => {
    const p = filled('programming');
    if (p.kind !== 'programming') throw new Error('kind');
    p.content.languages = ['python'];
    p.content.starter = { python: 'print(1)\n' };
    const qa = convertBody(bodyOf(p), 'programming_qa');
    expect(qa.content).toMatchObject({ languages: ['python'], starter: { python: 'print(1)\n' } });
    const reading = filled('reading');
    const listening = convertBody(bodyOf(reading), 'listening');
    expect(listening.content.subs).toEqual(reading.kind === 'reading' && reading.content.subs);
  });

  it('a new question that becomes an evaluation item gets the agreement scale, not the empty options', () => {
    const e = convertDraft(emptyDraft('single'), 'evaluation');
    expect(e.kind === 'evaluation' && e.content.options.map((o) => o.content)).toEqual([...LIKERT_OPTIONS['zh-CN']]);
    expect(e.kind === 'evaluation' && e.key.scores).toEqual({ A: 5, B: 4, C: 3, D: 2, E: 1 });
  });

  it('a true/false question keeps its own two options', () => {
    const tf = convertBody(bodyOf(filled('single')), 'true_false');
    expect(tf.content.options.map((o) => o.id)).toEqual(['A', 'B']);
    expect(tf.content.options.map((o) => o.content)).toEqual(['正确', '错误']);
  });

  it("starts a true/false question's options and an evaluation item's scale in the author's language alone", () => {
    const tf = (lang: 'zh-CN' | 'en-US') => {
      const d = emptyDraft('true_false', lang);
      return d.kind === 'true_false' && d.content.options.map((o) => o.content);
    };
    expect(tf('zh-CN')).toEqual(['正确', '错误']);
    expect(tf('en-US')).toEqual(['True', 'False']);
    const scale = convertDraft(emptyDraft('single', 'en-US'), 'evaluation', 'en-US');
    expect(scale.kind === 'evaluation' && scale.content.options.map((o) => o.content)).toEqual([
      'Strongly agree',
      'Agree',
      'Neutral',
      'Disagree',
      'Strongly disagree',
    ]);
  });
});
