/**
 * What kind of file an upload is, told by its first bytes: the one place every upload is checked (a declared type
 * or an extension proves nothing). JPEG and PNG signatures come from the face engine's image module, which its
 * worker threads load on their own.
 */
import { sniffImage as jpegOrPng } from '../proctoring/face/image.js';

/** A recognised media type: its MIME type and the extension its object key gets. */
export interface MediaType {
  mime: string;
  ext: string;
}

const ascii = (buf: Buffer, at: number, text: string) =>
  buf.length >= at + text.length && buf.toString('latin1', at, at + text.length) === text;

/** Pictures stems may show: PNG, JPEG, GIF, WebP (never SVG, which can carry script). */
export function sniffImage(buf: Buffer): MediaType | null {
  const common = jpegOrPng(buf);
  if (common === 'png') return { mime: 'image/png', ext: '.png' };
  if (common === 'jpeg') return { mime: 'image/jpeg', ext: '.jpg' };
  if (ascii(buf, 0, 'GIF87a') || ascii(buf, 0, 'GIF89a')) return { mime: 'image/gif', ext: '.gif' };
  if (ascii(buf, 0, 'RIFF') && ascii(buf, 8, 'WEBP')) return { mime: 'image/webp', ext: '.webp' };
  return null;
}

/** Listening audio: WAV, MP3, Ogg, M4A. */
export function sniffAudio(buf: Buffer): MediaType | null {
  if (ascii(buf, 0, 'RIFF') && ascii(buf, 8, 'WAVE')) return { mime: 'audio/wav', ext: '.wav' };
  if (ascii(buf, 0, 'OggS')) return { mime: 'audio/ogg', ext: '.ogg' };
  if (ascii(buf, 4, 'ftyp')) return { mime: 'audio/mp4', ext: '.m4a' };
  // MP3: an ID3 tag first, or straight away an MPEG audio frame (11 sync bits, a layer that is not 00:
  // layer 00 with those sync bits is AAC's ADTS).
  if (ascii(buf, 0, 'ID3')) return { mime: 'audio/mpeg', ext: '.mp3' };
  if (buf.length >= 2 && buf[0] === 0xff && (buf[1]! & 0xe0) === 0xe0 && (buf[1]! & 0x06) !== 0)
    return { mime: 'audio/mpeg', ext: '.mp3' };
  return null;
}

/** Microphone recordings the candidate's page makes: WebM (Chrome, Firefox) or, like listening audio, Ogg/WAV/M4A. */
export function sniffRecording(buf: Buffer): MediaType | null {
  if (buf.length >= 4 && buf.readUInt32BE(0) === 0x1a45dfa3) return { mime: 'audio/webm', ext: '.webm' };
  return sniffAudio(buf);
}

/**
 * Markup a browser may run: what the WHATWG MIME sniffing standard recognises as HTML or XML at the start of a
 * file (after white space), and SVG.
 */
const SCRIPTABLE =
  /^[\t\n\f\r ]*<(!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--|\?xml|svg)[\t\n\f\r >/]/i;

/** Plain text: UTF-8 (with or without BOM), no NUL or other binary bytes, and no markup a browser would render. */
function isPlainText(buf: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buf);
  } catch {
    return false;
  }
  // Control characters other than tab, line feed, form feed and carriage return mean binary content.
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) || c === 0x7f) return false;
  }
  return !SCRIPTABLE.test(text.slice(0, 512));
}

const startsWith = (buf: Buffer, magic: number[]) => buf.length >= magic.length && magic.every((b, i) => buf[i] === b);

/** The check of each declared type that is not a picture or audio: what its bytes must be. */
const DOCUMENTS: Record<string, (buf: Buffer) => boolean> = {
  'application/pdf': (b) => ascii(b, 0, '%PDF-'),
  // Word 97-2003: an OLE compound file.
  'application/msword': (b) => startsWith(b, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  // Office Open XML and ZIP: a local file header, or an empty archive's end record.
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': (b) => startsWith(b, [0x50, 0x4b, 3, 4]),
  'application/zip': (b) => startsWith(b, [0x50, 0x4b, 3, 4]) || startsWith(b, [0x50, 0x4b, 5, 6]),
  'text/plain': isPlainText,
};

/**
 * Whether the bytes are what the declared MIME type says (pictures, audio, PDF, Word, ZIP, plain text); false for
 * a type this module does not know, so an unknown type is never taken on trust.
 */
export function contentMatches(mime: string, buf: Buffer): boolean {
  const declared = mime.toLowerCase().split(';')[0]!.trim();
  const document = DOCUMENTS[declared];
  if (document) return document(buf);
  if (declared.startsWith('image/'))
    return sniffImage(buf)?.mime === (declared === 'image/jpg' ? 'image/jpeg' : declared);
  if (declared.startsWith('audio/')) return sniffRecording(buf)?.mime === declared;
  return false;
}
