import { describe, expect, it } from 'vitest';
import { blockHtml, inlineHtml } from './html.js';

describe('option HTML', () => {
  it('stores one paragraph without its <p> and gives it back wrapped', () => {
    expect(inlineHtml('<p>24 <strong>x</strong></p>')).toBe('24 <strong>x</strong>');
    expect(blockHtml('24 <strong>x</strong>')).toBe('<p>24 <strong>x</strong></p>');
  });

  it('leaves several paragraphs, other blocks and the empty text as they are', () => {
    for (const html of ['<p>a</p><p>b</p>', '<ul><li>a</li></ul>', '']) {
      expect(inlineHtml(html)).toBe(html);
      expect(blockHtml(html)).toBe(html);
    }
  });

  it('round-trips what the editor reports', () => {
    for (const html of ['<p>a</p>', '<p>a</p><p>b</p>', '<pre><code>x</code></pre>', '<p><img src="/m/1.png"></p>'])
      expect(blockHtml(inlineHtml(html))).toBe(html);
  });
});
