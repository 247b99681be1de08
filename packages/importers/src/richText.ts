/** Rich text helpers: every format's text becomes the HTML the contract stores. */

/** Escapes text for HTML (and XML). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Plain text to HTML: escaped, line breaks kept. */
export function plainToHtml(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

/**
 * Markdown to HTML, the small subset question files use (paragraphs, line breaks, **bold**, *italic*, `code`);
 * anything else stays as text.
 */
export function markdownToHtml(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((para) => para.trim())
    .filter(Boolean)
    .map((para) => {
      const html = escapeHtml(para)
        .replace(/`([^`]+)`/g, '<code>$1</code>')
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/\*([^*]+)\*/g, '<em>$1</em>')
        .replace(/\r?\n/g, '<br>');
      return `<p>${html}</p>`;
    })
    .join('');
}

/** Text in a named Moodle text format (html, moodle_auto_format, plain_text, markdown) to HTML. */
export function formattedToHtml(text: string, format: string | undefined): string {
  switch (format ?? 'html') {
    case 'plain_text':
    case 'plain':
      return plainToHtml(text);
    case 'markdown':
      return markdownToHtml(text);
    case 'moodle_auto_format':
    case 'moodle':
      // Moodle's auto format is HTML whose bare line breaks are kept.
      return text.replace(/\r?\n/g, '<br>');
    default:
      return text;
  }
}

/** HTML to text: tags removed and the common entities decoded (for titles and accepted answers). */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, '')).trim();
}

/** Decodes XML's predefined entities and numeric character references, and nothing else (no expansion). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|lt|gt|amp|quot|apos|nbsp);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: '\u00a0' }[name] ?? whole;
  });
}

/** The link a draft's rich text carries for an embedded file; the server rewrites it to the stored file's URL. */
export function fileUrl(id: string): string {
  return `import-file:${id}`;
}

/** Matches every embedded-file link in rich text; group 1 is the file id. */
export const FILE_URL_PATTERN = /import-file:(f\d+)/g;

const MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  bmp: 'image/bmp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  pdf: 'application/pdf',
};

/** MIME type from a file name. */
export function mimeOf(name: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  return MIME[ext] ?? 'application/octet-stream';
}

/** The marker of a blank in a fill-in-blank stem (as the editor and the demo questions write it). */
export const BLANK = '___';
