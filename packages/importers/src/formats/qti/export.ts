/** Drafts to a QTI 2.1 content package (imsmanifest.xml and one item file per question). */
import type { QuestionOf } from '@examhall/contract';
import { XMLValidator } from 'fast-xml-parser';
import { zipSync } from 'fflate';
import { problem } from '../../problems.js';
import { BLANK, escapeHtml, htmlToText } from '../../richText.js';
import type { Draft, Problem } from '../../types.js';
import { escapeXml } from '../../xml.js';
import { notExported, writeKind, type KindWriters } from '../kinds.js';

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
    const item = writeKind(QTI_KINDS, d, 'this slice writes choice, text entry and extended text items only', xhtml);
    if ('why' in item) {
      problems.push(notExported(i, d.question.kind, 'QTI 2.1', item.why));
      return;
    }
    const id = `item-${i + 1}`;
    const href = `items/${id}.xml`;
    const title = d.title ?? (htmlToText(d.question.content.stem).slice(0, 60) || id);
    const feedback = modalFeedback(d, xhtml);
    const outcomes =
      '<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"/>\n' +
      (feedback ? '<outcomeDeclaration identifier="FEEDBACK" cardinality="multiple" baseType="identifier"/>\n' : '');
    files[href] = new TextEncoder().encode(
      `<?xml version="1.0" encoding="UTF-8"?>\n<assessmentItem xmlns="${NS}" identifier="${id}" title="${escapeXml(title)}" adaptive="false" timeDependent="false">\n${item.declarations}${outcomes}<itemBody>${item.body}</itemBody>\n${item.processing}${feedback}</assessmentItem>\n`,
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

/**
 * A draft's explanation and feedback per option as modal feedback: each option's named after the option (the FEEDBACK
 * outcome a processing sets to the response shows it), the explanation as `EXPLANATION`.
 */
function modalFeedback(d: Draft, xhtml: Xhtml): string {
  const one = (id: string, html: string) =>
    `<modalFeedback outcomeIdentifier="FEEDBACK" identifier="${escapeXml(id)}" showHide="show">${xhtml(html)}</modalFeedback>\n`;
  // Sub-questions' feedback ('2.A') has no item of its own here.
  const options = Object.entries(d.feedback ?? {}).filter(([id]) => /^[A-H]$/.test(id));
  return (d.explanation ? one('EXPLANATION', d.explanation) : '') + options.map(([id, html]) => one(id, html)).join('');
}

const processing = (template: string) => `<responseProcessing template="${TEMPLATES}/${template}"/>\n`;
const declaration = (id: string, cardinality: string, baseType: string, correct: string[], mapping = '') =>
  `<responseDeclaration identifier="${id}" cardinality="${cardinality}" baseType="${baseType}">` +
  (correct.length
    ? `<correctResponse>${correct.map((v) => `<value>${escapeXml(v)}</value>`).join('')}</correctResponse>`
    : '') +
  `${mapping}</responseDeclaration>\n`;

/** What an item file holds of a question. */
interface Item {
  declarations: string;
  body: string;
  processing: string;
}

/** A question's HTML as XHTML (or as plain text with a note when it is not well-formed). */
type Xhtml = (html: string) => string;

const choices = (xhtml: Xhtml, options: { id: string; content: string }[], max: number) =>
  `<choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="${max}">${options
    .map((o) => `<simpleChoice identifier="${o.id}">${xhtml(o.content)}</simpleChoice>`)
    .join('')}</choiceInteraction>`;

/** Single choice and true/false: one right option. */
const oneRight = (q: QuestionOf<'single' | 'true_false'>, _d: Draft, xhtml: Xhtml): Item => ({
  declarations: declaration('RESPONSE', 'single', 'identifier', [q.key.option]),
  body: xhtml(q.content.stem) + choices(xhtml, q.content.options, 1),
  processing: processing('match_correct'),
});

/** Multiple and indefinite choice: the right options. */
const manyRight = (q: QuestionOf<'multiple' | 'indefinite'>, _d: Draft, xhtml: Xhtml): Item => ({
  declarations: declaration('RESPONSE', 'multiple', 'identifier', q.key.options),
  body: xhtml(q.content.stem) + choices(xhtml, q.content.options, 0),
  processing: processing('match_correct'),
});

/** Each kind this exporter writes, as an item's declarations, body and processing; a kind left out is not written. */
const QTI_KINDS: KindWriters<Item, Xhtml> = {
  single: oneRight,
  true_false: oneRight,
  multiple: manyRight,
  indefinite: manyRight,
  gradient: (q, _d, xhtml) => {
    const best = Object.entries(q.key.scores).sort((a, b) => b[1] - a[1])[0]![0];
    const mapping = `<mapping defaultValue="0">${Object.entries(q.key.scores)
      .map(([k, v]) => `<mapEntry mapKey="${k}" mappedValue="${v}"/>`)
      .join('')}</mapping>`;
    return {
      declarations: declaration('RESPONSE', 'single', 'identifier', [best], mapping),
      body: xhtml(q.content.stem) + choices(xhtml, q.content.options, 1),
      processing: processing('map_response'),
    };
  },
  fill_blank: (q, _d, xhtml) => {
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
  },
  qa: (q, _d, xhtml) => ({
    declarations: declaration('RESPONSE', 'single', 'string', []),
    body: `${xhtml(q.content.stem)}<extendedTextInteraction responseIdentifier="RESPONSE"/>`,
    processing: '',
  }),
};
