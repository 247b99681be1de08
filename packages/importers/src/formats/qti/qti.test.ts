import { strToU8, zipSync } from 'fflate';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../index.js';

const NS21 = 'http://www.imsglobal.org/xsd/imsqti_v2p1';
const item21 = (id: string, decls: string, body: string, encoding = 'UTF-8') =>
  `<?xml version="1.0" encoding="${encoding}"?>\n<assessmentItem xmlns="${NS21}" identifier="${id}" title="${id} title">\n${decls}\n<itemBody>${body}</itemBody>\n</assessmentItem>`;
const decl = (id: string, card: string, base: string, correct: string[], mapping = '') =>
  `<responseDeclaration identifier="${id}" cardinality="${card}" baseType="${base}"><correctResponse>${correct.map((c) => `<value>${c}</value>`).join('')}</correctResponse>${mapping}</responseDeclaration>`;
const choice = (max: number, ids: string[]) =>
  `<choiceInteraction responseIdentifier="R" maxChoices="${max}"><prompt>Choose:</prompt>${ids.map((i) => `<simpleChoice identifier="${i}">opt ${i}</simpleChoice>`).join('')}</choiceInteraction>`;

const PARTIAL = item21(
  'partial',
  decl(
    'R',
    'single',
    'identifier',
    ['x'],
    '<mapping defaultValue="0"><mapEntry mapKey="x" mappedValue="2"/><mapEntry mapKey="y" mappedValue="1"/></mapping>',
  ),
  `<p>Best?</p>${choice(1, ['x', 'y', 'z'])}`,
);
const INLINE = item21(
  'inline',
  decl('R', 'single', 'identifier', ['b']),
  '<p>Paris is in <inlineChoiceInteraction responseIdentifier="R"><inlineChoice identifier="a">Spain</inlineChoice><inlineChoice identifier="b">France</inlineChoice></inlineChoiceInteraction>.</p>',
);
const BLANKS = item21(
  'blanks',
  decl('R1', 'single', 'string', ['cat']) +
    decl(
      'R2',
      'single',
      'string',
      [],
      '<mapping><mapEntry mapKey="mat" mappedValue="1"/><mapEntry mapKey="rug" mappedValue="0.5"/></mapping>',
    ),
  '<p>The <textEntryInteraction responseIdentifier="R1"/> sat on the <textEntryInteraction responseIdentifier="R2"/>.</p>',
);
const QTI3 = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="q3" title="QTI three">
<qti-response-declaration identifier="RESPONSE" cardinality="multiple" base-type="identifier"><qti-correct-response><qti-value>a</qti-value><qti-value>c</qti-value></qti-correct-response></qti-response-declaration>
<qti-item-body><p>Pick two</p><qti-choice-interaction response-identifier="RESPONSE" max-choices="0"><qti-simple-choice identifier="a">A</qti-simple-choice><qti-simple-choice identifier="b">B</qti-simple-choice><qti-simple-choice identifier="c">C</qti-simple-choice></qti-choice-interaction></qti-item-body>
</qti-assessment-item>`;

describe('QTI', () => {
  it('a lone 2.1 item in ISO-8859-1: decoded by its prolog', async () => {
    const xml = item21(
      'latin',
      decl('R', 'single', 'identifier', ['A']),
      `<p>Café crème à ${'\u00e9'}té?</p>${choice(1, ['A', 'B'])}`,
      'ISO-8859-1',
    );
    const r = await importFile({ name: 'latin.xml', bytes: iconv.encode(xml, 'latin1') });
    expect(r.problems).toEqual([]);
    expect(r.questions[0]!.question.content.stem).toBe('<p>Café crème à été?</p>Choose:');
    expect(r.questions[0]!.title).toBe('latin title');
  });

  it('a lone 3.0 item (kebab-case names): multiple choice', async () => {
    const r = await importFile({ name: 'q3.xml', bytes: strToU8(QTI3) });
    expect(r.questions[0]!.question).toMatchObject({ kind: 'multiple', key: { options: ['A', 'C'] } });
  });

  it('a content package: items through the manifest, partial credit, inline choice, text entries, a picture', async () => {
    const pic = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    const manifest = `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"><resources>
<resource identifier="t" type="imsqti_test_xmlv2p1" href="test.xml"/>
<resource identifier="i1" type="imsqti_item_xmlv2p1" href="items/partial.xml"/>
<resource identifier="i2" type="imsqti_item_xmlv2p1" href="items/inline.xml"/>
<resource identifier="i3" type="imsqti_item_xmlv2p1" href="items/blanks.xml"/>
<resource identifier="i4" type="imsqti_item_xmlv2p1" href="items/pic.xml"/>
<resource identifier="i5" type="imsqti_item_xmlv2p1" href="items/gone.xml"/>
<resource identifier="i6" type="imsqti_item_xmlv2p1" href="items/broken.xml"/>
</resources></manifest>`;
    const zip = zipSync({
      'imsmanifest.xml': strToU8(manifest),
      'items/partial.xml': strToU8(PARTIAL),
      'items/inline.xml': strToU8(INLINE),
      'items/blanks.xml': strToU8(BLANKS),
      'items/pic.xml': strToU8(
        item21(
          'pic',
          decl('R', 'single', 'string', []),
          '<p><img src="../media/p.png" alt="p"/> Describe.</p><extendedTextInteraction responseIdentifier="R"/>',
        ),
      ),
      'items/broken.xml': strToU8(item21('broken', '', '<p>oops</div>')),
      'media/p.png': pic,
    });
    const r = await importFile({ name: 'pkg.zip', bytes: zip });
    expect(r.refused).toBe(false);
    expect(r.questions.map((q) => q.question.kind)).toEqual(['gradient', 'single', 'fill_blank', 'qa']);
    expect(r.questions[0]!.question.key).toEqual({ scores: { A: 100, B: 50, C: 0 } });
    expect(r.questions[1]!.question).toEqual({
      kind: 'single',
      content: {
        stem: '<p>Paris is in ___.</p>',
        options: [
          { id: 'A', content: 'Spain' },
          { id: 'B', content: 'France' },
        ],
      },
      key: { option: 'B' },
    });
    expect(r.questions[2]!.question).toEqual({
      kind: 'fill_blank',
      content: { stem: '<p>The ___ sat on the ___.</p>', blanks: 2 },
      key: { blanks: [['cat'], ['mat']] },
    });
    expect(r.questions[3]!.question.content.stem).toBe('<p><img src="import-file:f1" alt="p"/> Describe.</p>');
    expect(r.files.map((f) => [f.id, f.name, f.mime, f.bytes.length])).toEqual([['f1', 'p.png', 'image/png', 4]]);
    expect(r.problems.filter((p) => p.severity !== 'info').map((p) => [p.code, p.where.file, p.where.line])).toEqual([
      ['manifest_file_missing', 'imsmanifest.xml', 7],
      ['xml_malformed', 'items/broken.xml', 4],
    ]);
    expect(r.problems.find((p) => p.code === 'partial_credit_dropped')?.params).toMatchObject({
      answer: 'rug',
      fraction: 50,
    });
  });

  it('a package without a manifest, and an interaction with no counterpart, are located problems', async () => {
    const none = await importFile({ name: 'x.zip', bytes: zipSync({ 'a.xml': strToU8(PARTIAL) }) });
    expect(none.problems.map((p) => p.code)).toEqual(['manifest_missing']);
    const order = item21(
      'order',
      '',
      '<orderInteraction responseIdentifier="R"><simpleChoice identifier="a">a</simpleChoice></orderInteraction>',
    );
    const r = await importFile({ name: 'order.xml', bytes: strToU8(order) });
    expect(r.questions).toEqual([]);
    expect(r.problems.map((p) => [p.code, p.where.element, p.where.line])).toEqual([
      ['no_counterpart', 'orderInteraction', 4],
    ]);
  });
});
