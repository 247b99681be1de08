import ExcelJS from 'exceljs';
import { strToU8, zipSync } from 'fflate';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { detectFormat, exportQuestions, importFile, questionTemplate, type ImportResult } from '../../index.js';

/** An xlsx built with exceljs: one sheet per entry, rows as given. */
async function workbook(sheets: Record<string, (string | number)[][]>): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
  }
  return new Uint8Array((await wb.xlsx.writeBuffer()) as ArrayBuffer);
}

const kinds = (r: ImportResult) => r.questions.map((q) => q.question.kind);
const errors = (r: ImportResult) => r.problems.filter((p) => p.severity === 'error');

// A Chinese platform's one-row-per-question sheet, with the header variants such exports use.
const ONE_ROW: (string | number)[][] = [
  [
    '*题型',
    '题目内容',
    'A选项',
    'B选项',
    'C选项',
    'D选项',
    '正确答案',
    '答案解析',
    '分数',
    '难易度',
    '知识点',
    '标签',
    '分类',
  ],
  [
    '单选题',
    '中国的首都是？',
    '上海',
    '北京',
    '广州',
    '',
    'B',
    '北京是首都',
    2,
    '简单',
    '地理',
    '常识，示例',
    '基础/地理',
  ],
  ['多选', '下列哪些是质数？', '2', '4', '5', '9', 'A、C', '', 4, 3, '', '', ''],
  ['不定项', '静态类型的语言？', 'Python', 'Java', '', '', 'B', '', '', '', '', '', ''],
  ['判断题', '地球绕太阳公转。', '', '', '', '', '对', '', 1, '', '', '', ''],
  ['填空题', '首都是 ____，最大城市是 ___。', '', '', '', '', '北京|Beijing；上海', '', 4, '', '', '', ''],
  ['简答题', '介绍一个项目。', '', '', '', '', '目标 3 分，贡献 7 分', '', 10, '困难', '', '', ''],
  ['梯度题', '客户投诉时先做什么？', '倾听', '转交', '解释', '', 'A=10;B=6;C:2', '', 10, '', '', '', ''],
];

describe('xlsx, one row per question', () => {
  it('reads every kind with header variants, answers in the common spellings and the metadata', async () => {
    const r = await importFile({ name: 'bank.xlsx', bytes: await workbook({ 题库: ONE_ROW }) });
    expect(r.format).toBe('xlsx');
    expect(r.problems).toEqual([]);
    expect(kinds(r)).toEqual(['single', 'multiple', 'indefinite', 'true_false', 'fill_blank', 'qa', 'gradient']);
    const [single, multiple, , tf, fill, qa, gradient] = r.questions;
    expect(single).toMatchObject({
      question: {
        content: { stem: '<p>中国的首都是？</p>', options: [{ id: 'A', content: '上海' }, { id: 'B' }, { id: 'C' }] },
        key: { option: 'B' },
      },
      explanation: '<p>北京是首都</p>',
      points: 2,
      difficulty: 1,
      knowledge_points: ['地理'],
      tags: ['常识', '示例'],
      folder: ['基础', '地理'],
      where: { sheet: '题库', row: 2 },
    });
    expect(single!.question.kind === 'single' && single!.question.content.options).toHaveLength(3);
    expect(multiple!.question.key).toEqual({ options: ['A', 'C'] });
    expect(multiple!.difficulty).toBe(3);
    expect(tf!.question).toMatchObject({ key: { option: 'A' }, content: { options: [{ content: '正确 True' }, {}] } });
    expect(fill!.question).toEqual({
      kind: 'fill_blank',
      content: { stem: '<p>首都是 ___，最大城市是 ___。</p>', blanks: 2 },
      key: { blanks: [['北京', 'Beijing'], ['上海']] },
    });
    expect(qa!.question.key).toEqual({ rubric: '<p>目标 3 分，贡献 7 分</p>' });
    expect(qa!.difficulty).toBe(5);
    expect(gradient!.question.key).toEqual({ scores: { A: 10, B: 6, C: 2 } });
  });

  it('a malformed row is a problem at its row and column, in the file’s terms, and no draft; the others import', async () => {
    const rows = [
      ONE_ROW[0]!,
      ONE_ROW[1]!,
      ['单选题', '答案不在选项中', '甲', '乙', '', '', 'E', '', '', '', '', '', ''],
      ['多选题', '选项中间空了一个', '甲', '', '丙', '', 'AC', '', '', '', '', '', ''],
      ['单选题', '', '甲', '乙', '', '', 'A', '', '', '', '', '', ''],
      ['填空题', '只有一个空 ___', '', '', '', '', '甲;乙', '', '', '', '', '', ''],
      ['计算题', '未知题型', '', '', '', '', '', '', '', '', '', '', ''],
      ['单选题', '分值不对', '甲', '乙', '', '', 'A', '', 'abc', '很简单', '', '', ''],
      ['编程题', '编程题请用 FPS', '', '', '', '', '', '', '', '', '', '', ''],
    ];
    const r = await importFile({ name: 'bad.xlsx', bytes: await workbook({ Sheet1: rows }) });
    expect(r.refused).toBe(false);
    expect(r.questions.map((q) => q.where.row)).toEqual([2]);
    const answer = r.problems.find((p) => p.code === 'answer_not_option')!;
    expect(answer.message_zh).toBe('工作表 Sheet1，第 3 行 G 列：答案 E 不在选项中');
    expect(answer.message).toBe('sheet Sheet1, row 3, column G: answer E is not among the options');
    expect(r.problems.map((p) => [p.code, p.where.row, p.where.col, p.severity])).toEqual([
      ['answer_not_option', 3, 'G', 'error'],
      ['cell_missing', 4, 'D', 'error'],
      // The gap shifts 丙 to B, so the answer's C names no option either.
      ['answer_not_option', 4, 'G', 'error'],
      ['cell_missing', 5, 'B', 'error'],
      ['blank_count', 6, 'G', 'error'],
      ['unknown_question_type', 7, 'A', 'error'],
      ['cell_invalid', 8, 'I', 'error'],
      ['cell_invalid', 8, 'J', 'error'],
      ['kind_not_in_format', 9, 'A', 'warning'],
    ]);
    expect(r.problems.find((p) => p.where.row === 5)!.message_zh).toBe('工作表 Sheet1，第 5 行 B 列：题干为空');
  });

  it('a workbook without a header row is one located problem', async () => {
    const r = await importFile({
      name: 'x.xlsx',
      bytes: await workbook({
        数据: [
          ['a', 'b'],
          ['c', 'd'],
        ],
      }),
    });
    expect(r.questions).toEqual([]);
    expect(r.problems.map((p) => [p.code, p.where.sheet])).toEqual([['sheet_no_header', '数据']]);
  });
});

describe('xlsx, one row per option grouped by question number', () => {
  it('groups rows by 题号, takes right options from 是否正确 and points from 选项分值', async () => {
    const rows: (string | number)[][] = [
      ['题号', '题型', '题干', '选项', '是否正确', '选项分值', '解析', '分值'],
      [1, '单选题', '1 + 1 = ?', '1', '否', '', '基础', 2],
      [1, '', '', '2', '是', '', '', ''],
      [1, '', '', '3', '', '', '', ''],
      [2, '多选题', '偶数有？', '2', '√', '', '', 3],
      [2, '', '', '3', '×', '', '', ''],
      [2, '', '', '4', 'Y', '', '', ''],
      [3, '梯度题', '先做什么？', '倾听', '', 10, '', ''],
      ['', '', '', '解释', '', 5, '', ''],
      [4, '填空题', '___ 是首都，___ 最大', '北京|Beijing', '', '', '', ''],
      [4, '', '', '上海', '', '', '', ''],
      [5, '单选题', '坏的是否正确', '甲', '也许', '', '', ''],
      [5, '', '', '乙', '是', '', '', ''],
    ];
    const r = await importFile({ name: 'options.xlsx', bytes: await workbook({ Sheet1: rows }) });
    expect(kinds(r)).toEqual(['single', 'multiple', 'gradient', 'fill_blank']);
    expect(r.questions.map((q) => q.question.key)).toEqual([
      { option: 'B' },
      { options: ['A', 'C'] },
      { scores: { A: 10, B: 5 } },
      { blanks: [['北京', 'Beijing'], ['上海']] },
    ]);
    expect(r.questions[0]).toMatchObject({ points: 2, explanation: '<p>基础</p>', where: { row: 2 } });
    expect(r.problems.map((p) => [p.code, p.where.row, p.where.col])).toEqual([['cell_invalid', 12, 'E']]);
  });
});

describe('the template', () => {
  it('has the questions sheet with dropdowns for 题型 and 难度, an instructions sheet, and one example per kind', async () => {
    const bytes = await questionTemplate();
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(bytes) as unknown as ExcelJS.Buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['题目', '说明']);
    const ws = wb.getWorksheet('题目')!;
    expect(ws.getRow(1).values).toContain('题型');
    expect(ws.rowCount).toBe(13);
    const a = ws.getCell('A2').dataValidation;
    expect(a.type).toBe('list');
    expect(a.formulae[0]).toContain('单选题');
    expect(ws.getCell('P5').dataValidation.formulae[0]).toContain('困难');
    expect(
      wb
        .getWorksheet('说明')!
        .getSheetValues()
        .flat()
        .some((v) => typeof v === 'string' && v.includes('北京|Beijing')),
    ).toBe(true);

    const r = await importFile({ name: 'template.xlsx', bytes });
    expect(kinds(r)).toEqual([
      'single',
      'multiple',
      'indefinite',
      'fill_blank',
      'qa',
      'true_false',
      'programming_qa',
      'gradient',
      'evaluation',
    ]);
    expect(r.problems.map((p) => [p.code, p.where.row, p.where.col, p.severity])).toEqual([
      ['kind_not_in_format', 7, 'A', 'warning'],
      ['kind_not_in_format', 10, 'A', 'warning'],
      ['kind_not_in_format', 11, 'A', 'warning'],
    ]);
    expect(r.questions[3]!.question.key).toEqual({
      blanks: [
        ['北京', 'Beijing'],
        ['上海', 'Shanghai'],
      ],
    });
    const english = await importFile({ name: 't.xlsx', bytes: await questionTemplate('en') });
    expect(kinds(english)).toEqual(kinds(r));
  });
});

const CSV = `题型,题干,选项A,选项B,答案,解析
单选题,中国的首都是？,北京,上海,A,"多行
解析"
判断题,"含逗号, 和 ""引号""",,,错误,
`;

describe('CSV', () => {
  const expected = async (bytes: Uint8Array, name = 'bank.csv') => {
    const r = await importFile({ name, bytes });
    expect(r.format).toBe('csv');
    expect(r.problems).toEqual([]);
    expect(kinds(r)).toEqual(['single', 'true_false']);
    expect(r.questions[0]!.explanation).toBe('<p>多行<br>解析</p>');
    expect(r.questions[1]!.question.content.stem).toBe('<p>含逗号, 和 &quot;引号&quot;</p>');
    expect(r.questions[1]!.question.key).toEqual({ option: 'B' });
  };

  it('reads UTF-8 with and without a BOM', async () => {
    await expected(new TextEncoder().encode(CSV));
    await expected(new TextEncoder().encode(`\ufeff${CSV}`));
  });

  it('detects GBK and GB18030 (what Chinese Excel saves)', async () => {
    await expected(iconv.encode(CSV, 'gbk'));
    await expected(iconv.encode(CSV, 'gb18030'));
    expect(detectFormat('题库.csv', iconv.encode(CSV, 'gbk'))).toBe('csv');
  });

  it('reads English headers and tab-separated files', async () => {
    const english = 'Type\tStem\tOption A\tOption B\tAnswer\nsingle\tPick one\tyes\tno\tb\n';
    const r = await importFile({ name: 'en.csv', bytes: new TextEncoder().encode(english) });
    expect(r.questions[0]!.question.key).toEqual({ option: 'B' });
  });

  it('a malformed CSV is a located problem and nothing is imported', async () => {
    const r = await importFile({ name: 'bad.csv', bytes: new TextEncoder().encode('题型,题干\n单选题,"没有闭合\n') });
    expect(r.questions).toEqual([]);
    expect(errors(r).map((p) => p.code)).toEqual(['syntax']);
    expect(r.problems[0]!.where.line).toBeGreaterThan(0);
  });

  it('exports UTF-8 with a BOM, guards formula-looking cells, and reads its own export back', async () => {
    const source = await importFile({ name: 'bank.xlsx', bytes: await workbook({ S: ONE_ROW }) });
    const first = source.questions[0]!;
    const risky = { ...first, title: '=HYPERLINK("x")' };
    const out = await exportQuestions('csv', [risky, ...source.questions.slice(1)]);
    expect([...out.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(out.bytes)).toContain(`'=HYPERLINK(""x"")`);
    const back = await importFile({ name: `x.${out.extension}`, bytes: out.bytes });
    expect(back.problems).toEqual([]);
    expect(back.questions[0]!.title).toBe('=HYPERLINK("x")');
    expect(kinds(back)).toEqual(kinds(source));
  });
});

/** A minimal xlsx whose one worksheet has `rows` rows, written straight into a zip (exceljs would take minutes). */
function bigSheet(rows: number): Uint8Array {
  const head =
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
  const parts: string[] = [head];
  for (let r = 1; r <= rows; r++)
    parts.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>q${r}</t></is></c></row>`);
  parts.push('</sheetData></worksheet>');
  return zipSync(
    {
      '[Content_Types].xml': strToU8('<Types/>'),
      'xl/workbook.xml': strToU8('<workbook/>'),
      'xl/worksheets/sheet1.xml': strToU8(parts.join('')),
    },
    { level: 1 },
  );
}

/**
 * A workbook whose worksheet (at `path`) has `rows` empty rows, each tag broken by `gap` before its attribute
 * (`<row\nr="1"></row>`): a count of `<row ` and `<row>` patterns finds none of them.
 */
function gappedRows(rows: number, gap: string, path = 'xl/worksheets/sheet1.xml'): Uint8Array {
  const parts = ['<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'];
  for (let r = 1; r <= rows; r++) parts.push(`<row${gap}r="${r}"></row>`);
  parts.push('</sheetData></worksheet>');
  return zipSync({ 'xl/workbook.xml': strToU8('<workbook/>'), [path]: strToU8(parts.join('')) }, { level: 6 });
}

describe('hostile sheets are refused in bounded time and memory', () => {
  it.each([
    ['a line break', '\n', undefined],
    ['a tab', '\t', undefined],
    ['CR LF', '\r\n', undefined],
    ['a line break (the sheet in a folder exceljs also reads sheets from)', '\n', 'x/xl/worksheets/sheet2.xml'],
  ])(
    '250,000 empty rows, each tag broken by %s, are counted as the XML parser reads them and refused',
    async (_, gap, path) => {
      const bytes = gappedRows(250_000, gap, path);
      expect(bytes.length).toBeLessThan(1024 * 1024);
      const started = performance.now();
      const r = await importFile({ name: 'gapped.xlsx', bytes });
      expect(performance.now() - started).toBeLessThan(2000);
      expect(r.refused).toBe(true);
      expect(r.problems.map((p) => [p.code, p.params.limit])).toEqual([['sheet_too_many_rows', 200_000]]);
    },
  );

  it('a sheet with a million rows, from a row count taken while inflating', async () => {
    const bytes = bigSheet(1_000_000);
    const started = performance.now();
    const before = process.memoryUsage().rss;
    const r = await importFile({ name: 'million.xlsx', bytes });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
    expect(r.refused).toBe(true);
    expect(r.problems.map((p) => [p.code, p.where.file])).toEqual([
      ['sheet_too_many_rows', 'xl/worksheets/sheet1.xml'],
    ]);
    expect(r.problems[0]!.message).toContain('over the limit of 200000');
  });

  it('a CSV with a million rows', async () => {
    const r = await importFile({ name: 'million.csv', bytes: strToU8('题型,题干\n' + '单选题,x\n'.repeat(1_000_000)) });
    expect(r.refused).toBe(true);
    expect(r.problems[0]!.code).toBe('sheet_too_many_rows');
  });

  it('an xlsx zip bomb is refused by the zip checks', async () => {
    const bomb = zipSync(
      { 'xl/workbook.xml': strToU8('<workbook/>'), 'xl/sharedStrings.xml': new Uint8Array(64 * 1024 * 1024) },
      { level: 9 },
    );
    const r = await importFile({ name: 'bomb.xlsx', bytes: bomb });
    expect(r.refused).toBe(true);
    expect(r.problems.map((p) => p.code)).toEqual(['zip_bomb']);
  });

  it.each(['garbage.xlsx', 'garbage.csv'])('binary garbage named %s', async (name) => {
    const garbage = new Uint8Array(4096);
    let seed = 11;
    for (let i = 0; i < garbage.length; i++) garbage[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    const r = await importFile({ name, bytes: garbage });
    expect(r.refused).toBe(true);
    expect(r.questions).toEqual([]);
    expect(['zip_invalid', 'not_text']).toContain(r.problems[0]!.code);
  });

  it('a zip that is not a workbook, named .xlsx', async () => {
    const r = await importFile({ name: 'x.xlsx', bytes: zipSync({ 'a.txt': strToU8('hello') }), format: 'xlsx' });
    expect(r.problems.map((p) => p.code)).toEqual(['xlsx_invalid']);
  });
});
