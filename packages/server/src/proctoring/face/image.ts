import sharp from 'sharp';

/** An RGB picture: 3 bytes a pixel, row by row. */
export interface RgbImage {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** width * height * 3 bytes. */
  data: Uint8Array;
}

/** A decoded picture with the size it has in the file (the pixels may be a reduced copy). */
export interface DecodedImage extends RgbImage {
  /** Width of the picture in the file. */
  sourceWidth: number;
  /** Height of the picture in the file. */
  sourceHeight: number;
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

/** Longest side a picture is decoded at for the models: their inputs are 224 to 256 pixels square. */
export const MODEL_SIDE = 640;

// one libvips thread per decode: each face worker is meant to use one core
sharp.concurrency(1);
sharp.cache(false);

/**
 * Decodes a JPEG or PNG into RGB (libvips through sharp), no larger than `maxSide` on its longest side: a large
 * JPEG is shrunk while it is decoded (DCT scaling), so a 1280x720 frame costs about what a 640x360 one does.
 * Throws ImageUnreadableError for anything else, or for a picture past MAX_MEGAPIXELS.
 */
export async function decodeImage(bytes: Uint8Array, maxSide = MODEL_SIDE): Promise<DecodedImage> {
  const kind = sniffImage(bytes);
  if (kind === null) throw new ImageUnreadableError('not a JPEG or PNG');
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const limit = MAX_MEGAPIXELS * 1024 * 1024;
  if (kind === 'png') {
    // the size from the IHDR chunk, checked before anything is decoded
    if (bytes.length < 24 || input.readUInt32BE(16) * input.readUInt32BE(20) > limit) {
      throw new ImageUnreadableError('missing header or too large');
    }
  }
  try {
    const image = sharp(input, { limitInputPixels: limit, failOn: 'truncated' });
    const { width: sourceWidth, height: sourceHeight } = await image.metadata();
    const { data, info } = await image
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3 || data.length < info.width * info.height * 3) throw new ImageUnreadableError('no pixels');
    return {
      width: info.width,
      height: info.height,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      sourceWidth: sourceWidth ?? info.width,
      sourceHeight: sourceHeight ?? info.height,
    };
  } catch (err) {
    if (err instanceof ImageUnreadableError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new ImageUnreadableError(/pixel limit/i.test(message) ? `too large: ${message}` : message);
  }
}
