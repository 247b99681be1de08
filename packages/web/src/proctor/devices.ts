/**
 * Opening the camera, the microphone and the screen, and turning the browser's failures into
 * reasons the candidate can act on.
 */

/** Width of camera frames: 1280x720 is the size proctors compare faces at. */
export const CAPTURE_WIDTH = 1280;
/** Height of camera frames (see CAPTURE_WIDTH). */
export const CAPTURE_HEIGHT = 720;

/** Why a device could not be used; each has its own guidance text. */
export type DeviceProblem =
  | 'denied' // NotAllowedError: the candidate or a policy refused permission
  | 'missing' // NotFoundError / OverconstrainedError: no such device
  | 'busy' // NotReadableError: another program holds the device
  | 'notWholeScreen' // a window or tab was shared instead of the whole screen
  | 'unsupported' // no mediaDevices in this browser / insecure origin
  | 'failed'; // anything else

/** A device failure with its kind; `detail` is the browser's own message, for the log. */
export class DeviceError extends Error {
  override readonly name = 'DeviceError';
  constructor(
    /** What went wrong. */
    readonly problem: DeviceProblem,
    /** The browser's message or the surface shared. */
    readonly detail: string,
  ) {
    super(`${problem}: ${detail}`);
  }
}

/** Maps a getUserMedia/getDisplayMedia rejection to a DeviceError. */
export function toDeviceError(e: unknown): DeviceError {
  if (e instanceof DeviceError) return e;
  const name = e instanceof DOMException || e instanceof Error ? e.name : '';
  const message = e instanceof Error ? e.message : String(e);
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return new DeviceError('denied', message);
    case 'NotFoundError':
    case 'OverconstrainedError':
      return new DeviceError('missing', message);
    case 'NotReadableError':
    case 'AbortError':
      return new DeviceError('busy', message);
    case 'TypeError':
      return new DeviceError('unsupported', message);
    default:
      return new DeviceError('failed', message);
  }
}

function mediaDevices(): MediaDevices {
  if (typeof navigator === 'undefined' || !navigator.mediaDevices)
    throw new DeviceError('unsupported', 'navigator.mediaDevices is missing');
  return navigator.mediaDevices;
}

/** Opens the camera at 1280x720 (ideal; the device may give less). */
export async function openCamera(facingMode?: 'user' | 'environment'): Promise<MediaStream> {
  try {
    return await mediaDevices().getUserMedia({
      video: {
        width: { ideal: CAPTURE_WIDTH },
        height: { ideal: CAPTURE_HEIGHT },
        ...(facingMode ? { facingMode: { ideal: facingMode } } : {}),
      },
      audio: false,
    });
  } catch (e) {
    throw toDeviceError(e);
  }
}

/** Opens the microphone (a given device when `deviceId` is set). */
export async function openMicrophone(deviceId?: string): Promise<MediaStream> {
  try {
    return await mediaDevices().getUserMedia({
      audio: deviceId ? { deviceId: { exact: deviceId } } : true,
      video: false,
    });
  } catch (e) {
    throw toDeviceError(e);
  }
}

/**
 * Asks to share the whole screen. A window or a tab is refused: the track is stopped and a
 * 'notWholeScreen' error says what was shared.
 */
export async function openScreen(): Promise<MediaStream> {
  let stream: MediaStream;
  try {
    stream = await mediaDevices().getDisplayMedia({
      video: { displaySurface: 'monitor' } as MediaTrackConstraints,
      audio: false,
      // Chromium hints: offer the whole screen first, do not offer this tab.
      ...({ monitorTypeSurfaces: 'include', selfBrowserSurface: 'exclude', surfaceSwitching: 'exclude' } as object),
    });
  } catch (e) {
    throw toDeviceError(e);
  }
  const track = stream.getVideoTracks()[0];
  const surface = track?.getSettings().displaySurface;
  if (surface !== 'monitor') {
    for (const t of stream.getTracks()) t.stop();
    throw new DeviceError('notWholeScreen', surface ?? 'unknown');
  }
  return stream;
}

/** The label or id of the stream's first track, as the check records it. */
export function deviceLabel(stream: MediaStream): string {
  const track = stream.getTracks()[0];
  if (!track) return '';
  return (track.getSettings().deviceId ?? track.label ?? '').slice(0, 300);
}

/** A live level (0 to 1) of a microphone stream, from an AnalyserNode. */
export interface LevelMeter {
  /** Current level, 0 to 1: the loudest short block of the last third of a second, scaled. */
  level(): number;
  /** Closes the audio context. */
  close(): void;
}

/** Samples per block whose RMS makes one reading (about 21 ms at 48 kHz, the length of a syllable's attack). */
export const LEVEL_BLOCK = 1024;
/**
 * Samples the meter looks back over (about a third of a second at 48 kHz). Callers sample the level every
 * 100 to 250 ms, so consecutive readings overlap and a short sound between two readings is not missed.
 */
const LEVEL_WINDOW = 16384;

/**
 * The level of a stretch of samples: the RMS of its loudest block, scaled so that normal speech (around
 * 0.02 to 0.2 RMS) fills most of the meter. The loudest block, not the whole stretch, so a short sound
 * counts as much as a long one.
 */
export function peakBlockLevel(samples: Float32Array, block = LEVEL_BLOCK): number {
  let loudest = 0;
  for (let start = 0; start < samples.length; start += block) {
    const end = Math.min(samples.length, start + block);
    let sum = 0;
    for (let i = start; i < end; i++) sum += samples[i]! * samples[i]!;
    loudest = Math.max(loudest, sum / Math.max(1, end - start));
  }
  return Math.min(1, Math.sqrt(loudest) * 5);
}

/** Starts measuring the microphone's level. */
export function meterLevel(stream: MediaStream): LevelMeter {
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  const analyser = context.createAnalyser();
  analyser.fftSize = LEVEL_WINDOW;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  // A context created before a user gesture may start suspended.
  void context.resume().catch(() => undefined);
  return {
    level() {
      analyser.getFloatTimeDomainData(samples);
      return peakBlockLevel(samples);
    },
    close() {
      source.disconnect();
      void context.close().catch(() => undefined);
    },
  };
}
