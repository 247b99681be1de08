import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { problem, refuse } from './problems.js';
import { decodeEntities, escapeHtml } from './richText.js';
import { lineColumn } from './text.js';
import type { Problem, Where } from './types.js';

/** An element of a parsed XML file. */
export interface El {
  /** Local name (namespace prefix removed). */
  name: string;
  /** Attributes by local name, entities decoded. */
  attrs: Record<string, string>;
  /** Children in document order. */
  children: XNode[];
  /** Line of its start tag, from 1. */
  line: number;
}
/** A text or CDATA run. */
export interface XText {
  /** Raw text: entities NOT decoded for text, verbatim for CDATA. */
  text: string;
  /** True for CDATA. */
  cdata: boolean;
}
/** A node: element or text. */
export type XNode = El | XText;

/** True for an element node. */
export const isEl = (n: XNode): n is El => 'name' in n;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // No entity is ever expanded: XML's five and numeric references are decoded by decodeEntities, nothing else.
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  cdataPropName: '#cdata',
  ignoreDeclaration: true,
  ignorePiTags: true,
  removeNSPrefix: true,
  captureMetaData: true,
});
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

type Raw = Record<string, unknown> & { ':@'?: Record<string, string> };

/**
 * Parses XML text. A DOCTYPE or ENTITY declaration refuses the whole file (no bomb, no external entity);
 * malformed XML is a located problem and yields null.
 */
export function parseXml(text: string, where: Where, problems: Problem[]): El | null {
  const decl = /<!(DOCTYPE|ENTITY)/i.exec(text);
  if (decl) refuse({ ...where, ...lineColumn(text, decl.index) }, 'xml_doctype');
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    problems.push(
      problem({ ...where, line: valid.err.line, column: valid.err.col }, 'xml_malformed', 'error', {
        detail: valid.err.msg,
      }),
    );
    return null;
  }
  const lineAt = lineIndex(text);
  const raw = parser.parse(text) as Raw[];
  const root = raw.map((r) => convert(r, lineAt)).find(isEl);
  if (!root) {
    problems.push(problem(where, 'xml_malformed', 'error', { detail: 'no root element' }));
    return null;
  }
  return root;
}

function lineIndex(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

function convert(raw: Raw, lineAt: (offset: number) => number): XNode {
  if ('#text' in raw) return { text: String(raw['#text']), cdata: false };
  if ('#cdata' in raw) {
    const parts = raw['#cdata'] as Raw[];
    return { text: parts.map((p) => String(p['#text'] ?? '')).join(''), cdata: true };
  }
  const name = Object.keys(raw).find((k) => k !== ':@')!;
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw[':@'] ?? {})) attrs[k] = decodeEntities(String(v));
  const meta = (raw as Record<symbol, { startIndex?: number } | undefined>)[META];
  return {
    name,
    attrs,
    children: (raw[name] as Raw[]).map((c) => convert(c, lineAt)),
    line: lineAt(meta?.startIndex ?? 0),
  };
}

/** Child elements, optionally of one name. */
export function kids(el: El, name?: string): El[] {
  return el.children.filter((c): c is El => isEl(c) && (name === undefined || c.name === name));
}

/** The first child element of a name. */
export function kid(el: El | undefined, name: string): El | undefined {
  return el ? kids(el, name)[0] : undefined;
}

/** An element's text: text entities decoded, CDATA verbatim, child elements' text included. */
export function textOf(el: El | undefined): string {
  if (!el) return '';
  return el.children.map((c) => (isEl(c) ? textOf(c) : c.cdata ? c.text : decodeEntities(c.text))).join('');
}

/** An element's content as markup (XHTML inside QTI): text stays escaped, CDATA is escaped. */
export function innerXml(el: El, replace?: (child: El) => string | undefined): string {
  return el.children
    .map((c) => {
      if (!isEl(c)) return c.cdata ? escapeHtml(c.text) : c.text;
      const swapped = replace?.(c);
      return swapped ?? outerXml(c, replace);
    })
    .join('');
}

/** An element as markup. */
export function outerXml(el: El, replace?: (child: El) => string | undefined): string {
  const attrs = Object.entries(el.attrs)
    .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
    .join('');
  if (el.children.length === 0) return `<${el.name}${attrs}/>`;
  return `<${el.name}${attrs}>${innerXml(el, replace)}</${el.name}>`;
}

/** Every descendant element (depth first) that passes a test. */
export function findAll(el: El, test: (e: El) => boolean): El[] {
  const out: El[] = [];
  const walk = (e: El) => {
    for (const c of kids(e)) {
      if (test(c)) out.push(c);
      walk(c);
    }
  };
  walk(el);
  return out;
}

/** Escapes text for an XML text node or attribute. */
export const escapeXml = escapeHtml;

/** Wraps text in CDATA (splitting any `]]>` it holds). */
export function cdata(text: string): string {
  return `<![CDATA[${text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}
