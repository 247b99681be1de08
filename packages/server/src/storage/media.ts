/** How long audio plays, and the Content-Type stored media is served with. */
import { parseBuffer } from 'music-metadata';
import type { MediaType } from './sniff.js';

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
