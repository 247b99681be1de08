import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeviceError, LEVEL_BLOCK, openScreen, peakBlockLevel, toDeviceError } from './devices.js';
import { amzDate, objectUrl, sha256Hex } from './upload.js';

/** A display track as the browser hands it over, reporting the surface the candidate picked. */
function displayStream(surface: string) {
  const track = {
    stopped: false,
    getSettings: () => ({ displaySurface: surface }),
    stop: () => (track.stopped = true),
  };
  return { track, stream: { getVideoTracks: () => [track], getTracks: () => [track] } };
}

function withDisplayMedia(result: () => Promise<unknown>) {
  vi.stubGlobal('navigator', { mediaDevices: { getDisplayMedia: result } });
}

afterEach(() => vi.unstubAllGlobals());

describe('device failures', () => {
  it('turns the browser errors into problems the page explains', () => {
    expect(toDeviceError(new DOMException('denied', 'NotAllowedError')).problem).toBe('denied');
    expect(toDeviceError(new DOMException('none', 'NotFoundError')).problem).toBe('missing');
    expect(toDeviceError(new DOMException('in use', 'NotReadableError')).problem).toBe('busy');
    expect(toDeviceError(new Error('odd')).problem).toBe('failed');
  });

  it('accepts the whole screen', async () => {
    const { stream, track } = displayStream('monitor');
    withDisplayMedia(() => Promise.resolve(stream));
    await expect(openScreen()).resolves.toBe(stream);
    expect(track.stopped).toBe(false);
  });

  it.each(['window', 'browser'])('refuses a shared %s and stops its track', async (surface) => {
    const { stream, track } = displayStream(surface);
    withDisplayMedia(() => Promise.resolve(stream));
    const err = await openScreen().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceError);
    expect(err).toMatchObject({ problem: 'notWholeScreen', detail: surface });
    expect(track.stopped).toBe(true);
  });

  it('says so when the candidate cancels the picker', async () => {
    withDisplayMedia(() => Promise.reject(new DOMException('cancelled', 'NotAllowedError')));
    await expect(openScreen()).rejects.toMatchObject({ problem: 'denied' });
  });
});

describe('upload addresses and digests', () => {
  it('puts bucket and key under the endpoint, path-style, escaping each segment', () => {
    expect(objectUrl('http://127.0.0.1:3000/storage', 'examhall', 'attempts/7/frame/1-a b.jpg')).toBe(
      'http://127.0.0.1:3000/storage/examhall/attempts/7/frame/1-a%20b.jpg',
    );
    expect(objectUrl('https://s3.example.com/', 'bkt', 'k')).toBe('https://s3.example.com/bkt/k');
  });

  it('dates the signature as SigV4 wants it', () => {
    expect(amzDate(Date.UTC(2026, 10, 21, 5, 6, 7, 890))).toBe('20261121T050607Z');
  });

  it('hashes with SHA-256', async () => {
    expect(await sha256Hex(new TextEncoder().encode('abc').buffer)).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});

describe('peakBlockLevel', () => {
  const window = (fill: (i: number) => number) => Float32Array.from({ length: 16 * LEVEL_BLOCK }, (_, i) => fill(i));

  it('is 0 for silence and scales steady sound by its RMS', () => {
    expect(peakBlockLevel(window(() => 0))).toBe(0);
    // A sine of amplitude 0.1 has an RMS of 0.0707; scaled by 5 that is 0.35.
    expect(peakBlockLevel(window((i) => 0.1 * Math.sin(i / 5)))).toBeCloseTo(0.35, 1);
    expect(peakBlockLevel(window((i) => Math.sin(i / 5)))).toBe(1);
  });

  it('hears a short sound in a long window as loud as a long one', () => {
    // One block's worth of beep (about 21 ms) in a third of a second of silence.
    const beepAt = 9 * LEVEL_BLOCK + 100;
    const short = window((i) => (i >= beepAt && i < beepAt + LEVEL_BLOCK ? 0.15 * Math.sin(i / 3) : 0));
    expect(peakBlockLevel(short)).toBeGreaterThan(0.4);
    // Averaged over the whole window the same beep would stay under the level that counts as sound (0.15).
    let sum = 0;
    for (const v of short) sum += v * v;
    expect(Math.sqrt(sum / short.length) * 5).toBeLessThan(0.15);
  });
});
