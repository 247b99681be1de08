/**
 * Options are shown inline after their letter (`A. <text>`), so one paragraph is stored without its `<p>`;
 * the rich-text editor works in paragraphs and gets it back wrapped. Framework-free, tested on its own.
 */

const BLOCK = /^<(p|ul|ol|pre|blockquote|h[1-6]|table|hr|div)\b/i;

/** The HTML of one paragraph without its `<p>` (several paragraphs or other blocks stay as they are). */
export function inlineHtml(html: string): string {
  const m = /^<p>([\s\S]*)<\/p>$/.exec(html);
  if (!m || /<\/?p[\s>]/i.test(m[1]!)) return html;
  return m[1]!;
}

/** Inline HTML as the editor's paragraph (block HTML and the empty text stay as they are). */
export function blockHtml(html: string): string {
  if (html === '' || BLOCK.test(html)) return html;
  return `<p>${html}</p>`;
}
