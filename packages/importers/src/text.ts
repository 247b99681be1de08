import chardet from 'chardet';
import iconv from 'iconv-lite';
import { refuse } from './problems.js';
import type { Where } from './types.js';

/** True when the bytes look like binary data rather than text (NULs or many control characters early on). */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  let control = 0;
  for (const b of head) {
    if (b === 0) return true;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) control++;
  }
  return head.length > 0 && control / head.length > 0.05;
}

/** The encoding an XML prolog declares, if any (the prolog itself is ASCII in every encoding we take). */
export function declaredEncoding(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  return /^<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
}

/**
 * The encoding of text that is not UTF-8: GB18030 (a superset of GBK and GB2312, what Chinese Excel and editors
 * save) unless the detector is sure of another East Asian multi-byte encoding. Single-byte guesses are ignored:
 * detectors often take short GBK text for Latin-1.
 */
export function guessEncoding(buf: Uint8Array): string {
  const best = chardet.analyse(buf)[0];
  if (best && best.confidence >= 90 && /^(Big5|Shift_JIS|EUC-JP|EUC-KR)$/.test(best.name)) return best.name;
  return 'gb18030';
}

/**
 * Decodes a text file: a BOM wins, then the XML prolog's encoding, then UTF-8; a file that is not valid UTF-8
 * and declares nothing is read in the encoding guessEncoding finds (GB18030 by default). Binary data is refused.
 */
export function decodeText(bytes: Uint8Array, where: Where): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return checked(buf.subarray(3).toString('utf8'), where);
  if (buf[0] === 0xff && buf[1] === 0xfe) return checked(iconv.decode(buf.subarray(2), 'utf-16le'), where);
  if (buf[0] === 0xfe && buf[1] === 0xff) return checked(iconv.decode(buf.subarray(2), 'utf-16be'), where);
  if (looksBinary(bytes)) refuse(where, 'not_text');
  const declared = declaredEncoding(bytes);
  if (declared && !/^utf-?8$/i.test(declared)) {
    if (!iconv.encodingExists(declared)) refuse(where, 'bad_encoding', { encoding: declared });
    return checked(iconv.decode(buf, declared), where);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    if (declared) refuse(where, 'bad_encoding', { encoding: declared });
    return checked(iconv.decode(buf, guessEncoding(buf)), where);
  }
}

/** Refuses decoded text that is mostly undecodable characters (binary data under a text name). */
function checked(text: string, where: Where): string {
  const head = text.slice(0, 4096);
  const bad = [...head].filter((c) => c === '\ufffd' || c === '\u0000').length;
  if (head.length > 0 && bad / head.length > 0.02) refuse(where, 'not_text');
  return text;
}

/** Line and column (from 1) of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i;
    }
  }
  return { line, column: offset - last };
}
