import { describe, expect, it } from 'vitest';
import { importFile } from '../../index.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const text = (t: string, format = 'html') =>
  `<questiontext format="${format}"><text><![CDATA[${t}]]></text></questiontext>`;
const answer = (fraction: number, t: string, feedback = '') =>
  `<answer fraction="${fraction}" format="html"><text>${t}</text><feedback format="html"><text>${feedback}</text></feedback></answer>`;
const q = (type: string, name: string, body: string) =>
  `<question type="${type}"><name><text>${name}</text></name>${body}</question>`;

const FIXTURE = `<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<question type="category"><category><text>$course$/top/Net/HTTP</text></category></question>
${q('multichoice', 'One', `<questiontext format="html"><text><![CDATA[<p>Which code? <img src="@@PLUGINFILE@@/pic%20one.png"></p>]]></text><file name="pic one.png" path="/" encoding="base64">${PNG.toString('base64')}</file></questiontext><generalfeedback format="html"><text>&lt;p&gt;See RFC 9110.&lt;/p&gt;</text></generalfeedback><defaultgrade>2.5000000</defaultgrade><single>true</single>${answer(100, '404')}${answer(0, '200')}${answer(-50, '500')}<tags><tag><text>http</text></tag></tags>`)}
${q('multichoice', 'Many', `${text('Safe methods?')}<single>false</single>${answer(50, 'GET')}${answer(50, 'HEAD')}${answer(-100, 'POST')}`)}
${q('multichoice', 'Partial', `${text('Best?')}<single>true</single>${answer(100, 'a')}${answer(33.33333, 'b')}${answer(0, 'c')}`)}
${q('truefalse', 'TF', `${text('HTTP is stateless.', 'moodle_auto_format')}${answer(0, 'true')}${answer(100, 'false')}`)}
${q('shortanswer', 'Short', `${text('Port of HTTPS?')}${answer(100, '443')}${answer(50, '8443')}`)}
${q('numerical', 'Exact', `${text('2+2?')}<answer fraction="100"><text>4</text><tolerance>0</tolerance></answer>`)}
${q('numerical', 'Range', `${text('About pi?')}<answer fraction="100"><text>3.14</text><tolerance>0.01</tolerance></answer>`)}
${q('essay', 'Essay', `${text('Explain TLS.')}<graderinfo format="html"><text>Mentions handshake.</text></graderinfo>`)}
${q('cloze', 'Cloze', text('HTTP {1:SHORTANSWER:=GET~=get} and {2:SA:=POST~%50%PUT}.'))}
${q('cloze', 'ClozeChoice', text('Pick {1:MULTICHOICE:=yes~no} then {1:SA:=ok}.'))}
${q('description', 'Desc', text('Just text.'))}
${q('matching', 'Match', text('Match these.'))}
</quiz>`;

const r = await importFile({ name: 'quiz.xml', bytes: new TextEncoder().encode(FIXTURE) });

describe('Moodle XML', () => {
  const byTitle = (t: string) => r.questions.find((x) => x.title === t)!;

  it('reads each type, with the category as a folder, CDATA, entities, points and tags', async () => {
    expect(r.format).toBe('moodle_xml');
    expect(r.questions.map((x) => [x.title, x.question.kind])).toEqual([
      ['One', 'single'],
      ['Many', 'multiple'],
      ['Partial', 'gradient'],
      ['TF', 'true_false'],
      ['Short', 'fill_blank'],
      ['Exact', 'fill_blank'],
      ['Essay', 'qa'],
      ['Cloze', 'fill_blank'],
      ['ClozeChoice', 'reading'],
    ]);
    const one = byTitle('One');
    expect(one).toMatchObject({
      folder: ['Net', 'HTTP'],
      tags: ['http'],
      points: 2.5,
      explanation: '<p>See RFC 9110.</p>',
    });
    expect(one.question.key).toEqual({ option: 'A' });
    expect(one.where).toEqual({ line: 4, element: 'question[2] type="multichoice"' });
    expect(byTitle('Many').question.key).toEqual({ options: ['A', 'B'] });
    expect(byTitle('Partial').question.key).toEqual({ scores: { A: 100, B: 33.33333, C: 0 } });
    expect(byTitle('TF').question.key).toEqual({ option: 'B' });
    expect(byTitle('Short').question.key).toEqual({ blanks: [['443']] });
    expect(byTitle('Exact').question.key).toEqual({ blanks: [['4']] });
    expect(byTitle('Essay').question.key).toEqual({ rubric: 'Mentions handshake.' });
  });

  it('extracts embedded files and links them with the placeholder scheme', async () => {
    expect(r.files).toHaveLength(1);
    expect(r.files[0]).toMatchObject({ id: 'f1', name: 'pic one.png', mime: 'image/png' });
    expect(Buffer.from(r.files[0]!.bytes).equals(PNG)).toBe(true);
    expect(byTitle('One').question.content.stem).toBe('<p>Which code? <img src="import-file:f1"></p>');
  });

  it('maps cloze to blanks or to a reading question, with a note of what was converted', async () => {
    expect(byTitle('Cloze').question).toEqual({
      kind: 'fill_blank',
      content: { stem: 'HTTP ___ and ___.', blanks: 2 },
      key: { blanks: [['GET', 'get'], ['POST']] },
    });
    const reading = byTitle('ClozeChoice').question;
    if (reading.kind !== 'reading') throw new Error('not reading');
    expect(reading.content.subs.map((s) => s.type)).toEqual([1, 4]);
    expect(reading.key.subs).toEqual({ '1': { option: 'A' }, '2': { blanks: [['ok']] } });
    const notes = r.problems.filter((p) => p.code === 'cloze_converted');
    expect(notes.map((p) => [p.severity, p.params.kind])).toEqual([
      ['info', 'fill-in-blank'],
      ['info', 'reading'],
    ]);
  });

  it('reports what has no counterpart by element', async () => {
    expect(r.problems.filter((p) => p.severity === 'warning').map((p) => [p.code, p.where.element])).toEqual([
      ['numeric_not_exact', 'question[8] type="numerical"'],
      ['no_counterpart', 'question[12] type="description"'],
      ['no_counterpart', 'question[13] type="matching"'],
    ]);
  });

  it('a malformed file yields a located error and no question', async () => {
    const bad = FIXTURE.replace('<single>false</single>', '<single>false</singel>');
    const out = await importFile({ name: 'quiz.xml', bytes: new TextEncoder().encode(bad) });
    expect(out.questions).toEqual([]);
    expect(out.refused).toBe(false);
    expect(out.problems.map((p) => [p.code, p.where.line])).toEqual([['xml_malformed', 5]]);
    expect(out.problems[0]!.message).toMatch(/^line 5, column \d+: the XML is malformed/);
  });

  it('a question that does not fit its type is a located error; the others still import', async () => {
    const bad = FIXTURE.replace(answer(100, '404'), answer(0, '404'));
    const out = await importFile({ name: 'quiz.xml', bytes: new TextEncoder().encode(bad) });
    expect(out.questions.map((x) => x.title)).not.toContain('One');
    expect(out.questions).toHaveLength(8);
    expect(out.problems.find((p) => p.code === 'invalid_question')?.where.element).toBe(
      'question[2] type="multichoice"',
    );
  });
});
