/** Drafts to a QTI 2.1 content package (imsmanifest.xml and one item file per question). */
import { XMLValidator } from 'fast-xml-parser';
import { zipSync } from 'fflate';
import { problem } from '../../problems.js';
import { BLANK, escapeHtml, htmlToText } from '../../richText.js';
import type { Draft, Problem } from '../../types.js';
import { escapeXml } from '../../xml.js';

const NS = 'http://www.imsglobal.org/xsd/imsqti_v2p1';
const TEMPLATES = 'http://www.imsglobal.org/question/qti_v2p1/rptemplates';

/** Writes drafts as a QTI 2.1 content package; kinds QTI cannot carry here are left out with a problem each. */
export function exportQti(drafts: Draft[]): { bytes: Uint8Array; problems: Problem[] } {
  const problems: Problem[] = [];
  const files: Record<string, Uint8Array> = {};
  const resources: string[] = [];
  drafts.forEach((d, i) => {
    const where = { element: `question[${i + 1}]` };
    const xhtml = (html: string) => {
      if (XMLValidator.validate(`<div>${html}</div>`) === true && !/<!/.test(html)) return html;
      problems.push(problem(where, 'markup_dropped', 'info'));
      return escapeHtml(htmlToText(html));
    };
    const item = itemOf(d, xhtml);
    if ('why' in item) {
      problems.push(
        problem(where, 'not_exported', 'warning', { kind: d.question.kind, format: 'QTI 2.1', detail: item.why }),
      );
      return;
    }
    const id = `item-${i + 1}`;
    const href = `items/${id}.xml`;
    const title = d.title ?? (htmlToText(d.question.content.stem).slice(0, 60) || id);
    files[href] = new TextEncoder().encode(
      `<?xml version="1.0" encoding="UTF-8"?>\n<assessmentItem xmlns="${NS}" identifier="${id}" title="${escapeXml(title)}" adaptive="false" timeDependent="false">\n${item.declarations}<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>\n<itemBody>${item.body}</itemBody>\n${item.processing}</assessmentItem>\n`,
    );
    resources.push(
      `<resource identifier="${id}" type="imsqti_item_xmlv2p1" href="${href}"><file href="${href}"/></resource>`,
    );
  });
  files['imsmanifest.xml'] = new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?>\n<manifest xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" identifier="examhall-export">\n<metadata><schema>QTIv2.1 Package</schema><schemaversion>1.0.0</schemaversion></metadata>\n<organizations/>\n<resources>\n${resources.join('\n')}\n</resources>\n</manifest>\n`,
  );
  return { bytes: zipSync(files), problems };
}

const processing = (template: string) => `<responseProcessing template="${TEMPLATES}/${template}"/>\n`;
const declaration = (id: string, cardinality: string, baseType: string, correct: string[], mapping = '') =>
  `<responseDeclaration identifier="${id}" cardinality="${cardinality}" baseType="${baseType}">` +
  (correct.length
    ? `<correctResponse>${correct.map((v) => `<value>${escapeXml(v)}</value>`).join('')}</correctResponse>`
    : '') +
  `${mapping}</responseDeclaration>\n`;

/** An item's declarations, body and processing; or why it cannot be written. */
function itemOf(
  d: Draft,
  xhtml: (html: string) => string,
): { declarations: string; body: string; processing: string } | { why: string } {
  const q = d.question;
  const choices = (options: { id: string; content: string }[], max: number) =>
    `<choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="${max}">${options
      .map((o) => `<simpleChoice identifier="${o.id}">${xhtml(o.content)}</simpleChoice>`)
      .join('')}</choiceInteraction>`;
  switch (q.kind) {
    case 'single':
    case 'true_false':
      return {
        declarations: declaration('RESPONSE', 'single', 'identifier', [q.key.option]),
        body: xhtml(q.content.stem) + choices(q.content.options, 1),
        processing: processing('match_correct'),
      };
    case 'multiple':
    case 'indefinite':
      return {
        declarations: declaration('RESPONSE', 'multiple', 'identifier', q.key.options),
        body: xhtml(q.content.stem) + choices(q.content.options, 0),
        processing: processing('match_correct'),
      };
    case 'gradient': {
      const best = Object.entries(q.key.scores).sort((a, b) => b[1] - a[1])[0]![0];
      const mapping = `<mapping defaultValue="0">${Object.entries(q.key.scores)
        .map(([k, v]) => `<mapEntry mapKey="${k}" mappedValue="${v}"/>`)
        .join('')}</mapping>`;
      return {
        declarations: declaration('RESPONSE', 'single', 'identifier', [best], mapping),
        body: xhtml(q.content.stem) + choices(q.content.options, 1),
        processing: processing('map_response'),
      };
    }
    case 'fill_blank': {
      const parts = xhtml(q.content.stem).split(BLANK);
      if (parts.length - 1 !== q.content.blanks)
        return {
          why: `the stem marks ${parts.length - 1} blank(s) with ${BLANK} but the question has ${q.content.blanks}`,
        };
      const body = parts.reduce(
        (s, p, i) => `${s}<textEntryInteraction responseIdentifier="RESPONSE${i}" expectedLength="20"/>${p}`,
      );
      const declarations = q.key.blanks
        .map((variants, i) =>
          declaration(
            `RESPONSE${i + 1}`,
            'single',
            'string',
            [variants[0]!],
            `<mapping defaultValue="0">${variants
              .map((v) => `<mapEntry mapKey="${escapeXml(v)}" mappedValue="1" caseSensitive="false"/>`)
              .join('')}</mapping>`,
          ),
        )
        .join('');
      return { declarations, body, processing: processing('map_response') };
    }
    case 'qa':
      return {
        declarations: declaration('RESPONSE', 'single', 'string', []),
        body: `${xhtml(q.content.stem)}<extendedTextInteraction responseIdentifier="RESPONSE"/>`,
        processing: '',
      };
    case 'programming':
    case 'programming_qa':
    case 'reading':
    case 'listening':
    case 'evaluation':
      return { why: 'this slice writes choice, text entry and extended text items only' };
  }
}
