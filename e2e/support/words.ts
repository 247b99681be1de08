/** What a console page must not show: raw keys and enum values, epoch numbers, words in the other language. */
import { PROGRAMMING_LANGUAGE_TEXTS } from '@examhall/contract';
import type { Locator } from 'playwright-core';

/** Words that are the same in both languages: product names, formats and units. */
export const SAME_IN_BOTH = [
  'Examhall',
  'English',
  'API',
  'Webhook',
  'HTTP',
  'HTTPS',
  'URL',
  'ID',
  'SMS',
  'xlsx',
  'csv',
  'CSV',
  'Excel',
  'GIFT',
  'Moodle',
  'XML',
  'QTI',
  'FPS',
  'zip',
  'TOTP',
  // Programming languages' names, which are the same in both languages (Python, Java, JavaScript).
  ...Object.values(PROGRAMMING_LANGUAGE_TEXTS)
    .filter((t) => t['zh-CN'] === t['en-US'])
    .flatMap((t) => t['en-US'].match(/[A-Za-z]{3,}/g) ?? []),
];

/** A text node that reads as a key or an enum value (`exam.publish`, `grader_id`, `linetest`). */
const RAW_KEY = /^(?:[a-z]+_[a-z_]+|[a-z_]+(?:\.[a-z_]+)+)$/;
/** An address shown for a person to type or copy (the phone page's link): no words of either language. */
const URL_TEXT = /^https?:\/\/\S+$/;
/** An epoch in ms (2001 to 2286). */
const EPOCH = /\b1\d{12}\b/;
/** A picture drawn from an emoji font (📱, 🎓): an empty box where none is installed, and no word to a reader. */
const EMOJI = /\p{Emoji_Presentation}/u;

/**
 * The text nodes under `root` that are a raw key, an epoch number, an emoji, or words in the other language (English
 * words on a Chinese page, Chinese on an English one); `data` lists what people entered (names), which is shown as
 * written.
 */
export async function strayTexts(root: Locator, lang: 'zh-CN' | 'en-US', data: string[] = []): Promise<string[]> {
  const texts = await root.evaluate((el, pageLang) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      // Code, what a person typed (inputs' values are no text nodes; a text area's is), hidden parts and what shows
      // only without scripts are not the page's words.
      const skipped = 'code, pre, .cm-editor, textarea, [aria-hidden="true"], [hidden], script, style, noscript';
      if (!parent || parent.closest(skipped)) continue;
      // Words marked as another language (the switch to the other language names it in its own) are that language's.
      const marked = parent.closest('[lang]')?.getAttribute('lang') ?? pageLang;
      if (marked.slice(0, 2) !== pageLang.slice(0, 2)) continue;
      const text = (n.textContent ?? '').trim();
      if (text) out.push(text);
    }
    return out;
  }, lang);
  // Longest first, so a name is taken out whole before a shorter one inside it.
  const entered = [...new Set(data)].filter((d) => d.trim().length > 1).sort((a, b) => b.length - a.length);
  return texts.filter((whole) => {
    // An address is judged whole: a random token in it may hold a short entry ("Em"), and cutting that out breaks it.
    if (data.includes(whole) || URL_TEXT.test(whole)) return false;
    // An entry cut short to fit its cell ("Write a function that…") is still the entry.
    const cut = /^(.{8,})…$/su.exec(whole)?.[1];
    if (cut && data.some((d) => d.startsWith(cut))) return false;
    // What people entered inside the page's own words ("Invite to 《name》") is theirs: the rest is judged.
    let text = whole;
    for (const d of entered) text = text.split(d).join(' ');
    text = text.trim();
    if (!text) return false;
    if (RAW_KEY.test(text) || EPOCH.test(text) || EMOJI.test(text)) return true;
    // An English page has no Chinese words but what people entered.
    if (lang === 'en-US') return /[\u4e00-\u9fff]/.test(text);
    const words = (text.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !SAME_IN_BOTH.includes(w));
    return words.length > 0 && !/[\u4e00-\u9fff]/.test(text);
  });
}
