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
