import { QUESTION_KINDS } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en.js';
import { questionsEn } from '../i18n/questions.en.js';
import { questionsZh } from '../i18n/questions.zh.js';
// The editors' texts load with the console's, as on the console's pages.
import '../i18n/console.js';
import { loadLanguage, translate } from '../i18n/format.js';
import { zh } from '../i18n/zh.js';
import { emptyDraft, type QuestionDraft } from './drafts.js';
import {
  changedPaths,
  checkDraft,
  fieldName,
  fieldOf,
  isKnownText,
  problemsOf,
  problemText,
  related,
  shownProblems,
  subProblems,
  validateDraft,
} from './problems.js';

// English is fetched when first chosen; these tests read it.
await loadLanguage('en-US');

describe('the field of a problem', () => {
  it.each([
    [['content', 'stem'], 'content.stem'],
    [['content', 'options', 1, 'content'], 'content.options.1'],
    [['content', 'options'], 'content.options'],
    [['key', 'option'], 'key.option'],
    [['key', 'options', 2], 'key.options'],
    [['key', 'scores', 'B'], 'key.scores.B'],
    [['key', 'blanks', 0, 1], 'key.blanks.0'],
    [['content', 'samples', 2, 'input'], 'content.samples.2'],
    [['content', 'languages', 1], 'content.languages'],
    [['content', 'starter', 'java'], 'content.starter'],
    [['key', 'cases', 3, 'output'], 'key.cases'],
    [['key', 'checker', 'source'], 'key.checker'],
    [['key', 'reference', 'source'], 'key.reference'],
    [['content', 'audio', 'play_limit'], 'content.audio.play_limit'],
    [['content', 'subs', 0, 'options', 1, 'content'], 'content.subs.0'],
    [['key', 'subs', '3', 'option'], 'key.subs.3'],
    [['tags', 4], 'tags'],
    [['knowledge_points', 0], 'knowledge_points'],
    [['default_score'], 'default_score'],
  ] as const)('%j is shown at %s', (path, field) => {
    expect(fieldOf(path)).toBe(field);
  });

  it('comes from the server schema with the bank level taken out', () => {
    const problems = validateDraft({ ...emptyDraft('single'), tags: ['ok', ' '], default_score: null });
    expect(problemsOf(problems, 'content.stem')).toHaveLength(1);
    expect(problemsOf(problems, 'content.options.2')[0]?.text).toEqual({ key: 'qedit.err.optionEmpty' });
    expect(problemsOf(problems, 'key.option')[0]?.text).toEqual({ key: 'qedit.err.markRight' });
    expect(problemsOf(problems, 'tags')[0]?.text).toEqual({ key: 'qedit.err.tagEmpty' });
    expect(problemsOf(problems, 'default_score')[0]?.text).toEqual({ key: 'qedit.err.scoreNumber' });
  });
});

describe('a draft the server accepts', () => {
  it('gives the fields of the bank call, parsed by the same schema', () => {
    const d = emptyDraft('qa');
    d.content.stem = '<p>Why?</p>';
    const checked = checkDraft({ ...d, tags: [' arrays '] });
    expect(checked).toMatchObject({
      ok: true,
      fields: { question: { kind: 'qa', content: { stem: '<p>Why?</p>' } }, difficulty: 3, tags: ['arrays'] },
    });
    expect(checkDraft(emptyDraft('qa')).ok).toBe(false);
  });
});

describe("a sub-question's problems", () => {
  const reading = (): QuestionDraft => {
    const d = emptyDraft('reading');
    if (d.kind !== 'reading') throw new Error('kind');
    d.content.stem = '<p>s</p>';
    d.content.passage = '<p>p</p>';
    const sub = d.content.subs[0]!;
    sub.id = 4;
    sub.stem = '<p>x</p>';
    sub.score = null;
    sub.options = sub.options!.map((o) => ({ ...o, content: o.id }));
    d.key.subs = { '4': {} };
    return d;
  };

  it('are moved into its own editor: content.subs.i… → content…, its points → score', () => {
    const problems = validateDraft(reading());
    const mine = subProblems(problems, 0, 4);
    expect(mine.map((p) => p.field)).toEqual(['score']);
    expect(subProblems(problems, 1, 5)).toEqual([]);
  });

  it('of its key are found by its id', () => {
    const d = reading();
    if (d.kind !== 'reading') throw new Error('kind');
    d.content.subs[0]!.score = 3;
    const problems = validateDraft(d);
    expect(problems.map((p) => p.path.join('.'))).toEqual(['key.subs.4.option']);
    const mine = subProblems(problems, 0, 4);
    expect(mine).toMatchObject([
      { path: ['key', 'option'], field: 'key.option', text: { key: 'qedit.err.markRight' } },
    ]);
    expect(fieldName(problems[0]!.path, (id) => (id === '4' ? 0 : -1))).toEqual([
      { key: 'qedit.field.sub', params: { n: 1 } },
      { key: 'qedit.field.right' },
    ]);
  });
});

describe('messages', () => {
  it('take their parameters from the contract message', () => {
    expect(problemText(['content', 'options'], 'at least 2 options')).toEqual({
      key: 'qedit.err.optionsMin',
      params: { n: '2' },
    });
    expect(problemText(['key', 'scores', 'C'], 'option C has no points')).toEqual({
      key: 'qedit.err.optionNoPoints',
      params: { id: 'C' },
    });
    expect(problemText(['content', 'time_limit_ms'], 'at most 10000 ms')).toEqual({
      key: 'qedit.err.timeMax',
      params: { n: '10000' },
    });
    expect(translate('zh-CN', 'qedit.err.timeMax', { n: 10000 })).toBe('时间限制最多 10000 ms');
  });

  it('fall back to the required text, then to the contract message', () => {
    expect(problemText(['x'], 'Invalid input: expected string, received undefined')).toEqual({
      key: 'qedit.err.required',
    });
    const other = problemText(['x'], 'something new');
    expect(isKnownText(other)).toBe(false);
    expect(translate('en-US', other.key, other.params)).toContain('something new');
  });

  it('are known, in both languages, for every problem of broken questions of every kind', () => {
    const broken: QuestionDraft[] = QUESTION_KINDS.map((k) => emptyDraft(k));
    const p = emptyDraft('programming');
    if (p.kind === 'programming') {
      Object.assign(p.content, { languages: [], time_limit_ms: 5, memory_limit_mb: null, starter: { go: 'x' } });
      Object.assign(p.key, { checker: 'nope', reference: { language: 'c', source: '' } });
      broken.push(p);
    }
    const s = emptyDraft('single');
    if (s.kind === 'single') {
      s.content.options = s.content.options.slice(0, 1);
      broken.push({ ...s, tags: ['a'.repeat(50)], knowledge_points: [''], difficulty: 7 });
    }
    const f = emptyDraft('fill_blank');
    if (f.kind === 'fill_blank') {
      f.content.blanks = 3;
      f.key.blanks = [[' ']];
      broken.push(f);
    }
    const g = emptyDraft('gradient');
    if (g.kind === 'gradient') {
      g.key.scores = { A: 0, B: 0, C: 0 };
      broken.push(g);
    }
    const l = emptyDraft('listening');
    if (l.kind === 'listening') {
      l.content.audio.play_limit = 0;
      l.content.subs = [];
      broken.push(l);
    }
    // The editors' texts come with the console's (i18n/console.ts), on top of the base dictionaries.
    const zhEditor: Record<string, string> = { ...zh, ...questionsZh };
    const enEditor: Record<string, string> = { ...en, ...questionsEn };
    let seen = 0;
    for (const d of broken) {
      for (const problem of validateDraft(d)) {
        seen++;
        expect(isKnownText(problem.text), `${problem.path.join('.')}: ${problem.raw}`).toBe(true);
        expect(zhEditor[problem.text.key]).toBeTruthy();
        expect(enEditor[problem.text.key]).toBeTruthy();
        for (const part of fieldName(problem.path))
          expect(part.key, problem.path.join('.')).not.toBe('qedit.field.question');
      }
    }
    expect(seen).toBeGreaterThan(30);
  });
});

describe('which problems are shown', () => {
  it('are those near what the author changed, or all', () => {
    const before = emptyDraft('single');
    const after = structuredClone(before);
    after.content.stem = '<p>x</p>';
    if (after.kind === 'single') after.content.options[1]!.content = '';
    const touched = changedPaths(before, after);
    expect(touched).toEqual([['content', 'stem']]);
    const problems = validateDraft({ ...after, content: { ...after.content, stem: '' } } as QuestionDraft);
    expect(shownProblems(problems, touched, false).map((p) => p.field)).toEqual(['content.stem']);
    expect(shownProblems(problems, [], true)).toHaveLength(problems.length);
  });

  it('follow list changes: a removed option touches the list', () => {
    const before = emptyDraft('multiple');
    const after = structuredClone(before);
    if (after.kind === 'multiple') after.content.options.splice(1, 3);
    const touched = changedPaths(before, after);
    expect(touched).toContainEqual(['content', 'options', 1]);
    expect(related(['content', 'options'], touched[0]!)).toBe(true);
    const problems = validateDraft(after);
    expect(shownProblems(problems, touched, false).map((p) => p.raw)).toContain('at least 2 options');
  });
});

describe('the explanation a draft sends', () => {
  const single = (): QuestionDraft => {
    const d = emptyDraft('single');
    if (d.kind !== 'single') throw new Error('not single');
    d.content.stem = '<p>2, 4, 8, ?</p>';
    d.content.options = [
      { id: 'A', content: '12' },
      { id: 'B', content: '16' },
    ];
    d.key.option = 'B';
    return d;
  };

  it('keeps the feedback of the options the question has, drops blank ones and those of removed options', () => {
    const d = single();
    d.explanation = { text: '<p>Doubling.</p>', options: { A: 'adds 4', B: ' ', C: 'an option removed since' } };
    const checked = checkDraft(d);
    if (!checked.ok) throw new Error(JSON.stringify(checked.problems));
    expect(checked.fields.explanation).toEqual({ text: '<p>Doubling.</p>', options: { A: 'adds 4' } });
  });

  it('sends null when nothing is said', () => {
    const d = single();
    d.explanation = { text: '', options: { A: '' } };
    const checked = checkDraft(d);
    expect(checked.ok && checked.fields.explanation).toBeNull();
  });
});
