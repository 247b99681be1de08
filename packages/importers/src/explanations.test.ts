import ExcelJS from 'exceljs';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { exportQuestions, importFile, type Draft, type Format, type ImportResult } from './index.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

/** The explanations and feedback of a file's questions, with their kinds. */
const kept = (r: ImportResult) =>
  r.questions.map((q) => ({ kind: q.question.kind, explanation: q.explanation, feedback: q.feedback }));

/** Exports what was read and reads it again: the same explanations and feedback, and no problem. */
async function again(format: Format, drafts: Draft[]): Promise<ImportResult> {
  const out = await exportQuestions(format, drafts);
  expect(out.problems).toEqual([]);
  return importFile({ name: `again.${out.extension}`, bytes: out.bytes, format });
}

const GIFT = `::Capital::中国的首都是？{
  =北京#正确：北京是首都。
  ~上海#上海是最大的城市，不是首都。
  ~广州
  ####<p>北京自 1949 年起为首都。</p>
}

::Sun::太阳从东边升起。{TRUE#想想早晨太阳在哪边。#对，自西向东自转。####地球自西向东自转。}
`;

const MOODLE = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="multichoice">
    <name><text>Primes</text></name>
    <questiontext format="html"><text><![CDATA[<p>Which are primes?</p>]]></text></questiontext>
    <generalfeedback format="html"><text><![CDATA[<p>A prime has exactly two divisors.</p>]]></text></generalfeedback>
    <single>false</single>
    <answer fraction="50" format="html"><text>2</text><feedback format="html"><text>The only even prime.</text></feedback></answer>
    <answer fraction="-100" format="html"><text>4</text><feedback format="html"><text>4 = 2 × 2.</text></feedback></answer>
    <answer fraction="50" format="html"><text>5</text></answer>
  </question>
  <question type="truefalse">
    <name><text>Water</text></name>
    <questiontext format="html"><text>Water boils at 100 °C at sea level.</text></questiontext>
    <generalfeedback format="html"><text>At 1 atm.</text></generalfeedback>
    <answer fraction="0" format="moodle_auto_format"><text>false</text><feedback format="html"><text>It does.</text></feedback></answer>
    <answer fraction="100" format="moodle_auto_format"><text>true</text><feedback format="html"><text>Right.</text></feedback></answer>
  </question>
</quiz>
`;

const QTI = `<?xml version="1.0" encoding="UTF-8"?>
<assessmentItem xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" identifier="capital" title="Capital" adaptive="false" timeDependent="false">
  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">
    <correctResponse><value>B</value></correctResponse>
  </responseDeclaration>
  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>
  <outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>
  <itemBody>
    <p>中国的首都是？</p>
    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">
      <simpleChoice identifier="A">上海<feedbackInline outcomeIdentifier="FEEDBACK" identifier="A" showHide="show">不是首都。</feedbackInline></simpleChoice>
      <simpleChoice identifier="B">北京</simpleChoice>
    </choiceInteraction>
  </itemBody>
  <responseProcessing template="http://www.imsglobal.org/question/qti_v2p1/rptemplates/match_correct"/>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="B" showHide="show"><p>对。</p></modalFeedback>
  <modalFeedback outcomeIdentifier="FEEDBACK" identifier="general" showHide="show"><p>北京是首都。</p></modalFeedback>
</assessmentItem>
`;

const QTI3 = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="q3" title="Q3" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>A</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-item-body>
    <p>2 + 2 = ?</p>
    <qti-choice-interaction response-identifier="RESPONSE" max-choices="1">
      <qti-simple-choice identifier="A">4</qti-simple-choice>
      <qti-simple-choice identifier="B">5<qti-feedback-inline outcome-identifier="FEEDBACK" identifier="B" show-hide="show">Off by one.</qti-feedback-inline></qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-modal-feedback outcome-identifier="FEEDBACK" identifier="solution" show-hide="show"><p>Count on your fingers.</p></qti-modal-feedback>
</qti-assessment-item>
`;

/** A sheet of the one-row layout with 解析 and 选项反馈 columns (xlsx or CSV). */
const SHEET_ROWS = [
  ['题型', '题干', '选项A', '选项B', '选项C', '答案', '解析', '选项反馈'],
  ['单选题', '中国的首都是？', '上海', '北京', '广州', 'B', '北京是首都。', 'A: 上海是最大的城市。\nC: 广州是省会。'],
  ['填空题', '水在 ___ °C 沸腾。', '', '', '', '100', '在一个大气压下。', ''],
];

async function xlsxOf(rows: string[][]): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('题目');
  for (const r of rows) ws.addRow(r);
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

const csvOf = (rows: string[][]) =>
  utf8(rows.map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n'));

describe('explanations and feedback per option: kept by every format that has them, with no problem', () => {
  it('GIFT: the general feedback is the explanation, each answer’s feedback its option’s (true/false: wrong, then right)', async () => {
    const r = await importFile({ name: 'bank.gift.txt', bytes: utf8(GIFT) });
    expect(r.problems).toEqual([]);
    const want = [
      {
        kind: 'single',
        explanation: '<p>北京自 1949 年起为首都。</p>',
        feedback: { A: '正确：北京是首都。', B: '上海是最大的城市，不是首都。' },
      },
      {
        kind: 'true_false',
        explanation: '地球自西向东自转。',
        feedback: { A: '对，自西向东自转。', B: '想想早晨太阳在哪边。' },
      },
    ];
    expect(kept(r)).toEqual(want);
    const back = await again('gift', r.questions);
    expect(back.problems).toEqual([]);
    expect(kept(back)).toEqual(want);
  });

  it('Moodle XML: generalfeedback and each answer’s feedback, true/false by the answer’s text', async () => {
    const r = await importFile({ name: 'bank.xml', bytes: utf8(MOODLE) });
    expect(r.problems).toEqual([]);
    const want = [
      {
        kind: 'multiple',
        explanation: '<p>A prime has exactly two divisors.</p>',
        feedback: { A: 'The only even prime.', B: '4 = 2 × 2.' },
      },
      { kind: 'true_false', explanation: 'At 1 atm.', feedback: { A: 'Right.', B: 'It does.' } },
    ];
    expect(kept(r)).toEqual(want);
    const back = await again('moodle_xml', r.questions);
    expect(back.problems).toEqual([]);
    expect(kept(back)).toEqual(want);
  });

  it('QTI 2.1 and 3.0: modal feedback named after a choice and inline feedback are the option’s, the rest the explanation', async () => {
    const r = await importFile({ name: 'capital.xml', bytes: utf8(QTI) });
    expect(r.problems).toEqual([]);
    const want = {
      kind: 'single',
      explanation: '<p>北京是首都。</p>',
      feedback: { A: '不是首都。', B: '<p>对。</p>' },
    };
    expect(kept(r)).toEqual([want]);
    // The option's text is its own, without the feedback inside it.
    expect(r.questions[0]!.question.kind === 'single' && r.questions[0]!.question.content.options[0]!.content).toBe(
      '上海',
    );
    const back = await again('qti', r.questions);
    expect(back.problems).toEqual([]);
    expect(kept(back)).toEqual([want]);

    const pkg = zipSync({
      'imsmanifest.xml': utf8(
        `<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1"><resources><resource identifier="q3" type="imsqti_item_xmlv3p0" href="q3.xml"/></resources></manifest>`,
      ),
      'q3.xml': utf8(QTI3),
    });
    const r3 = await importFile({ name: 'q3.zip', bytes: pkg });
    expect(r3.problems).toEqual([]);
    expect(kept(r3)).toEqual([
      { kind: 'single', explanation: '<p>Count on your fingers.</p>', feedback: { B: 'Off by one.' } },
    ]);
  });

  it.each([
    ['xlsx', () => xlsxOf(SHEET_ROWS)],
    ['csv', () => Promise.resolve(csvOf(SHEET_ROWS))],
  ] as const)('%s: the 解析 and 选项反馈 columns, one line per option', async (format, file) => {
    const r = await importFile({ name: `bank.${format}`, bytes: await file() });
    expect(r.problems).toEqual([]);
    const want = [
      {
        kind: 'single',
        explanation: '<p>北京是首都。</p>',
        feedback: { A: '上海是最大的城市。', C: '广州是省会。' },
      },
      { kind: 'fill_blank', explanation: '<p>在一个大气压下。</p>', feedback: undefined },
    ];
    expect(kept(r)).toEqual(want);
    const back = await again(format, r.questions);
    expect(back.problems).toEqual([]);
    expect(kept(back)).toEqual(want);
  });

  it('a sheet’s feedback for a letter that is no option of the question is an error at its cell', async () => {
    const rows = [SHEET_ROWS[0]!, ['单选题', '1 + 1 = ?', '1', '2', '', 'B', '', 'D: 没有这个选项']];
    const r = await importFile({ name: 'bad.csv', bytes: csvOf(rows) });
    expect(r.questions).toEqual([]);
    expect(r.problems.map((p) => [p.code, p.where.row, p.where.col])).toEqual([['answer_not_option', 2, 'H']]);
  });
});
