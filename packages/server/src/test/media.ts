/** Bytes that pass the stores' content checks without being whole files: a format's signature, then some text. */

const SIGNATURES = {
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  webm: Buffer.from([0x1a, 0x45, 0xdf, 0xa3]),
} as const;

/** `text` behind the signature of `format`. */
export function signed(format: keyof typeof SIGNATURES, text: string): Buffer {
  return Buffer.concat([SIGNATURES[format], Buffer.from(text)]);
}

/** `text` behind the signature the key's extension names (.png, .webm; anything else is a JPEG). */
export function signedFor(key: string, text: string): Buffer {
  return signed(key.endsWith('.png') ? 'png' : key.endsWith('.webm') ? 'webm' : 'jpeg', text);
}

/** What the sniffing must refuse whatever type is declared: an HTML page with a script. */
export const HTML_PAGE = Buffer.from(
  '<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>',
);
