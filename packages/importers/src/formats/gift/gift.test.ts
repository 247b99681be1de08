import { describe, expect, it } from 'vitest';
import { importFile } from '../../index.js';

const gift = (text: string) => importFile({ name: 'bank.gift', bytes: new TextEncoder().encode(text) });

const FIXTURE = `// A comment line is ignored
// [tag:geography] [tag:易]
$CATEGORY: $course$/top/Geo/Europe

::Capital::[html]<p>The capital of <b>France</b>?</p>{
  =Paris#right
  ~Lyon#wrong
  ~[plain]<Nice>
  ####[html]<p>Paris since 987.</p>
}

::Colours::Which are primary? {
  ~%50%red
  ~%50%blue
  ~%-100%green
}

::Grades::[markdown]Pick the **best** one{=best ~%50%good ~%0%bad}

The sun rises in the {=east ~west} every morning.

::Esc::Escapes\\: \\= \\~ \\# \\{ \\} \\\\ are literal{T}

Is 2+2 five?{FALSE#no#yes}

Who wrote Hamlet?{=Shakespeare =William Shakespeare =%50%Marlowe}

Year of the Battle of Hastings: {#1066}

Pi to three places {#3.141..3.142}

Two with tolerance {#2:0.5}

::Essay::Describe your last project.{}

Only a description, no answers.

Match: {=cat -> meow =dog -> woof}
`;

const r = await gift(FIXTURE);

describe('GIFT', () => {
  const byTitle = (t: string) => r.questions.find((q) => q.title === t)!;

  it('reads every question type GIFT has, with titles, categories, tags and formats', async () => {
    expect(r.format).toBe('gift');
    expect(r.questions.map((q) => q.question.kind)).toEqual([
      'single',
      'multiple',
      'gradient',
      'single',
      'true_false',
      'true_false',
      'fill_blank',
      'fill_blank',
      'qa',
    ]);
    const capital = byTitle('Capital');
    expect(capital.folder).toEqual(['Geo', 'Europe']);
    expect(capital.tags).toEqual(['geography', '易']);
    expect(capital.question).toEqual({
      kind: 'single',
      content: {
        stem: '<p>The capital of <b>France</b>?</p>',
        options: [
          { id: 'A', content: 'Paris' },
          { id: 'B', content: 'Lyon' },
          { id: 'C', content: '&lt;Nice&gt;' },
        ],
      },
      key: { option: 'A' },
    });
    expect(capital.explanation).toBe('<p>Paris since 987.</p>');
    // Each answer's feedback stays beside its option.
    expect(capital.feedback).toEqual({ A: 'right', B: 'wrong' });
    expect(capital.where).toEqual({ line: 5 });
  });

  it('weights: multiple answers with negative weights, and partial credit as gradient scores', async () => {
    expect(byTitle('Colours').question.key).toEqual({ options: ['A', 'B'] });
    expect(byTitle('Grades').question).toMatchObject({
      kind: 'gradient',
      content: { stem: '<p>Pick the <strong>best</strong> one</p>' },
      key: { scores: { A: 100, B: 50, C: 0 } },
    });
  });

  it('missing word, escapes, true/false with feedback, short answers and exact numbers', async () => {
    expect(r.questions[3]!.question.content.stem).toBe('The sun rises in the ___ every morning.');
    expect(byTitle('Esc').question.content.stem).toBe('Escapes: = ~ # { } \\ are literal');
    expect(r.questions[5]!.question.key).toEqual({ option: 'B' });
    expect(r.questions[6]!.question).toEqual({
      kind: 'fill_blank',
      content: { stem: 'Who wrote Hamlet? ___', blanks: 1 },
      key: { blanks: [['Shakespeare', 'William Shakespeare']] },
    });
    expect(r.questions[7]!.question.key).toEqual({ blanks: [['1066']] });
    expect(byTitle('Essay').question).toEqual({
      kind: 'qa',
      content: { stem: 'Describe your last project.' },
      key: {},
    });
  });

  it('reports what has no counterpart where it stands, never guessing', async () => {
    const line = (text: string) => FIXTURE.split('\n').findIndex((l) => l.startsWith(text)) + 1;
    expect(r.problems.filter((p) => p.severity === 'warning').map((p) => [p.code, p.where.line])).toEqual([
      ['numeric_not_exact', line('Pi to three')],
      ['numeric_not_exact', line('Two with tolerance')],
      ['no_counterpart', line('Only a description')],
      ['no_counterpart', line('Match:')],
    ]);
    const partial = r.problems.find((p) => p.code === 'partial_credit_dropped')!;
    expect(partial.message).toBe(
      `line ${line('Who wrote')}: the answer "Marlowe" earned 50% there; only full-credit answers are kept`,
    );
    expect(partial.message_zh).toBe(`第 ${line('Who wrote')} 行：答案“Marlowe”原得 50% 分，只保留满分答案`);
  });

  it('a malformed file yields located errors and no half-built question', async () => {
    const bad = await gift(`::ok::Fine?{T}

::open::An answer block
that never closes {=a ~b

::weight::Bad weight {~%abc%a =b}

::what::Unknown block {maybe}

::num::Not a number {#abc}

::none::No right answer {~a ~b}
`);
    expect(bad.questions.map((q) => q.title)).toEqual(['ok']);
    expect(bad.problems.map((p) => [p.code, p.where.line, p.severity])).toEqual([
      ['syntax', 4, 'error'],
      ['syntax', 6, 'error'],
      ['syntax', 8, 'error'],
      ['syntax', 10, 'error'],
      ['invalid_question', 12, 'error'],
    ]);
    expect(bad.problems[0]!.message).toBe('line 4: the answer block opened here has no closing }');
    expect(bad.problems[0]!.message_zh).toBe('第 4 行：此处开始的答案块缺少右花括号 }');
    expect(bad.problems[4]!.message).toContain('choose at least one right option');
  });

  it('reads a GB18030 file when it is not UTF-8', async () => {
    const iconv = (await import('iconv-lite')).default;
    const r2 = await importFile({
      name: 'gbk.txt',
      bytes: iconv.encode('::题::中国的首都是？{=北京 ~上海}\n', 'gb18030'),
    });
    expect(r2.questions[0]!.question.content.stem).toBe('中国的首都是？');
  });
});
