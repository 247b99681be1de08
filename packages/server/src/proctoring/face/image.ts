import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** An RGB picture: 3 bytes a pixel, row by row. */
export interface RgbImage {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** width * height * 3 bytes. */
  data: Uint8Array;
}

/** The picture is not a JPEG or PNG we can read (or is too large to read safely). */
export class ImageUnreadableError extends Error {
  constructor(reason: string) {
    super(`image unreadable: ${reason}`);
    this.name = 'ImageUnreadableError';
  }
}

/** Largest picture decoded, in megapixels: a 1280x720 camera frame is 0.9, a phone photo 12. */
export const MAX_MEGAPIXELS = 16;

/**
 * Which format the bytes are, by their signature; the name or MIME type a client sends is not trusted. The
 * JPEG and PNG signatures live here (storage/sniff.ts uses this) since face workers load this folder alone.
 */
export function sniffImage(bytes: Uint8Array): 'jpeg' | 'png' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  return null;
}

/** Decodes a JPEG or PNG into RGB in pure JavaScript; throws ImageUnreadableError for anything else. */
export function decodeImage(bytes: Uint8Array): RgbImage {
  const kind = sniffImage(bytes);
  if (kind === null) throw new ImageUnreadableError('not a JPEG or PNG');
  let width: number;
  let height: number;
  let rgba: Uint8Array;
  try {
    if (kind === 'jpeg') {
      const out = jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: MAX_MEGAPIXELS,
        // RGBA output plus the decoder's own buffers for the largest allowed picture
        maxMemoryUsageInMB: MAX_MEGAPIXELS * 4 * 3,
      });
      ({ width, height } = out);
      rgba = out.data;
    } else {
      // the size from the IHDR chunk, checked before pngjs allocates the whole picture
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (bytes.length < 24 || view.getUint32(16) * view.getUint32(20) > MAX_MEGAPIXELS * 1024 * 1024) {
        throw new ImageUnreadableError('missing header or too large');
      }
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      ({ width, height } = png);
      rgba = png.data;
    }
  } catch (err) {
    if (err instanceof ImageUnreadableError) throw err;
    throw new ImageUnreadableError(err instanceof Error ? err.message : String(err));
  }
  if (width < 1 || height < 1 || rgba.length < width * height * 4) throw new ImageUnreadableError('no pixels');
  const data = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; j < data.length; i += 4, j += 3) {
    data[j] = rgba[i]!;
    data[j + 1] = rgba[i + 1]!;
    data[j + 2] = rgba[i + 2]!;
  }
  return { width, height, data };
}
