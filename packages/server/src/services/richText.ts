import sanitizeHtml from 'sanitize-html';

/** What a Q&A answer may contain: the editor's formatting, never scripts, styles, frames or event handlers. */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'blockquote',
    'h1',
    'h2',
    'h3',
    'h4',
    'a',
    'hr',
    'sub',
    'sup',
    'span',
  ],
  allowedAttributes: { a: ['href', 'title'], code: ['class'], pre: ['class'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
};

/** Rich text made safe to store and to show to a grader. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, {
    ...OPTIONS,
    allowedAttributes: { ...OPTIONS.allowedAttributes, a: ['href', 'title', 'rel', 'target'] },
  });
}

/**
 * Question text (stems, options, passages) made safe to store and to show to candidates: the answer
 * editor's formatting plus pictures and tables. Pictures come from http(s) or a path on this server (the
 * bank's uploads); data: URLs are refused, so pictures are uploaded rather than inlined into every copy.
 */
export function sanitizeQuestionHtml(html: string): string {
  return sanitizeHtml(html, {
    ...OPTIONS,
    allowedTags: [...(OPTIONS.allowedTags || []), 'img', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
    allowedAttributes: {
      ...OPTIONS.allowedAttributes,
      a: ['href', 'title', 'rel', 'target'],
      img: ['src', 'alt', 'width', 'height'],
      td: ['colspan', 'rowspan'],
      th: ['colspan', 'rowspan'],
    },
    allowedSchemesByTag: { img: ['http', 'https'] },
  });
}

/** Entities sanitize-html writes into text, and the common named ones an editor may send. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** The plain text of rich text (for search): tags gone, blocks and line breaks as spaces, entities decoded. */
export function htmlToText(html: string): string {
  const blocks = html.replace(/<(br|hr|\/p|\/div|\/li|\/h\d|\/tr|\/td|\/th|\/blockquote|\/pre)\b[^>]*>/gi, ' ');
  const text = sanitizeHtml(blocks, { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => {
      const lower = name.toLowerCase();
      if (ENTITIES[lower] !== undefined) return ENTITIES[lower];
      if (!lower.startsWith('#')) return whole;
      const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}
