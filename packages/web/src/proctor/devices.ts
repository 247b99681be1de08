/**
 * Opening the camera, the microphone and the screen, and turning the browser's failures into
 * reasons the candidate can act on.
 */

/** Capture size of camera frames (seed point 9). */
export const CAPTURE_WIDTH = 1280;
/** Capture size of camera frames (seed point 9). */
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
  /** Current level, 0 to 1 (RMS of the latest window, scaled). */
  level(): number;
  /** Closes the audio context. */
  close(): void;
}

/** Starts measuring the microphone's level. */
export function meterLevel(stream: MediaStream): LevelMeter {
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  // A context created before a user gesture may start suspended.
  void context.resume().catch(() => undefined);
  return {
    level() {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const s of samples) sum += s * s;
      const rms = Math.sqrt(sum / samples.length);
      // Speech sits around 0.02..0.2 RMS; scale so normal speech fills most of the meter.
      return Math.min(1, rms * 5);
    },
    close() {
      source.disconnect();
      void context.close().catch(() => undefined);
    },
  };
}
