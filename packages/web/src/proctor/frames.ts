/** Still pictures from live streams: 1280x720 JPEG, the size proctors compare faces at, the camera mirrored as the candidate sees it. */
import { CAPTURE_HEIGHT, CAPTURE_WIDTH } from './devices.js';

const players = new WeakMap<MediaStream, HTMLVideoElement>();

/** A playing, detached video element for the stream (one per stream, reused). */
async function playerFor(stream: MediaStream): Promise<HTMLVideoElement> {
  let video = players.get(stream);
  if (!video) {
    video = document.createElement('video');
    video.muted = true;
    video.playsInline = true;
    video.srcObject = stream;
    players.set(stream, video);
  }
  if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) {
    const v = video;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the stream gave no picture')), 5_000);
      v.addEventListener(
        'loadeddata',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
      v.play().catch((e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      });
    });
  }
  return video;
}

/** Options of a still. */
export interface GrabOptions {
  /** Mirror left-right (camera pictures). */
  mirror: boolean;
  /** MIME type; JPEG unless said (the signature is PNG). */
  type?: 'image/jpeg' | 'image/png';
}

/**
 * Takes one 1280x720 picture of the stream's video. The source is scaled to cover the frame and
 * centred, so a 4:3 camera is cropped rather than squashed.
 */
export async function grabStill(stream: MediaStream, options: GrabOptions): Promise<Blob> {
  const video = await playerFor(stream);
  const canvas = document.createElement('canvas');
  canvas.width = CAPTURE_WIDTH;
  canvas.height = CAPTURE_HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  const vw = video.videoWidth || CAPTURE_WIDTH;
  const vh = video.videoHeight || CAPTURE_HEIGHT;
  const scale = Math.max(CAPTURE_WIDTH / vw, CAPTURE_HEIGHT / vh);
  const dw = vw * scale;
  const dh = vh * scale;
  if (options.mirror) {
    ctx.translate(CAPTURE_WIDTH, 0);
    ctx.scale(-1, 1);
  }
  ctx.drawImage(video, (CAPTURE_WIDTH - dw) / 2, (CAPTURE_HEIGHT - dh) / 2, dw, dh);
  return canvasBlob(canvas, options.type ?? 'image/jpeg');
}

/** A canvas as an image file. */
export function canvasBlob(canvas: HTMLCanvasElement, type: 'image/jpeg' | 'image/png'): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('the picture could not be encoded'))), type, 0.85),
  );
}
