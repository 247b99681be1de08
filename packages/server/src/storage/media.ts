/** What kind of picture or audio a file is, told by its first bytes, and how long audio plays. */
import { parseBuffer } from 'music-metadata';

/** A recognised media type: its MIME type and the extension its object key gets. */
export interface MediaType {
  mime: string;
  ext: string;
}

const ascii = (buf: Buffer, at: number, text: string) =>
  buf.length >= at + text.length && buf.toString('latin1', at, at + text.length) === text;

/** Pictures stems may show: PNG, JPEG, GIF, WebP (never SVG, which can carry script). */
export function sniffImage(buf: Buffer): MediaType | null {
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { mime: 'image/png', ext: '.png' };
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff)
    return { mime: 'image/jpeg', ext: '.jpg' };
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

/** The Content-Type to serve a stored object with, by its key's extension. */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.')).toLowerCase();
  const types: Record<string, string> = {
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.gif': 'image/gif',
    '.webp': 'image/webp',
    '.wav': 'audio/wav',
    '.mp3': 'audio/mpeg',
    '.ogg': 'audio/ogg',
    '.m4a': 'audio/mp4',
  };
  return types[ext] ?? 'application/octet-stream';
}

/**
 * How long audio plays, in seconds, read from the file itself (for MP3 without a length header by walking
 * its frames); null when it cannot be told.
 */
export async function audioSeconds(buf: Buffer, type: MediaType): Promise<number | null> {
  try {
    const meta = await parseBuffer(
      new Uint8Array(buf.buffer, buf.byteOffset, buf.length),
      {
        mimeType: type.mime,
        size: buf.length,
      },
      { duration: true, skipCovers: true },
    );
    const d = meta.format.duration;
    return d !== undefined && Number.isFinite(d) && d > 0 ? d : null;
  } catch {
    return null;
  }
}
