import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeDetail, detail } from '@examhall/contract';
import {
  maskPhone,
  MUTE_GRACE_MS,
  phoneWatcher,
  watchFullscreen,
  watchClosedPage,
  watchTracks,
  type FullscreenDocument,
  type Raise,
} from './risks.js';
import type { ProctorStreams } from './streams.js';
import { memoryStorage } from '../test/memoryStorage.js';

/** A media track as far as the detector sees it: events, kind, label, muted. */
class FakeTrack extends EventTarget {
  muted = false;
  constructor(
    readonly kind: 'audio' | 'video',
    readonly label: string,
  ) {
    super();
  }
}

function streamOf(...tracks: FakeTrack[]): MediaStream {
  return { getTracks: () => tracks } as unknown as MediaStream;
}

function recorder(): { raise: Raise; raised: [string, string][] } {
  const raised: [string, string][] = [];
  return { raise: (risk, detail) => raised.push([risk, detail]), raised };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('watchTracks', () => {
  it('raises camera, microphone and screen sharing once each when their tracks end', () => {
    const camera = new FakeTrack('video', 'fake camera');
    const mic = new FakeTrack('audio', 'fake mic');
    const screen = new FakeTrack('video', 'screen:0');
    const streams: ProctorStreams = { camera: streamOf(camera), microphone: streamOf(mic), screen: streamOf(screen) };
    const { raise, raised } = recorder();
    const stop = watchTracks(raise, { get: () => streams, subscribe: () => () => undefined });
    camera.dispatchEvent(new Event('ended'));
    camera.dispatchEvent(new Event('ended'));
    mic.dispatchEvent(new Event('ended'));
    screen.dispatchEvent(new Event('ended'));
    expect(raised.map(([r]) => r)).toEqual(['firstCameraAbnormal', 'microphoneAbnormal', 'screenSharingAbnormal']);
    expect(describeDetail(raised[0]![1])).toEqual({
      key: 'trackEnded',
      params: { track: 'camera', label: 'fake camera' },
    });
    stop();
    screen.dispatchEvent(new Event('ended'));
    expect(raised).toHaveLength(3);
  });

  it('raises a mute only when it lasts past the grace period', () => {
    vi.useFakeTimers();
    const mic = new FakeTrack('audio', 'fake mic');
    const { raise, raised } = recorder();
    watchTracks(raise, {
      get: () => ({ camera: null, microphone: streamOf(mic), screen: null }),
      subscribe: () => () => undefined,
    });
    mic.muted = true;
    mic.dispatchEvent(new Event('mute'));
    vi.advanceTimersByTime(MUTE_GRACE_MS - 100);
    mic.muted = false;
    mic.dispatchEvent(new Event('unmute'));
    vi.advanceTimersByTime(1_000);
    expect(raised).toEqual([]);
    mic.muted = true;
    mic.dispatchEvent(new Event('mute'));
    vi.advanceTimersByTime(MUTE_GRACE_MS + 1);
    expect(raised).toEqual([['microphoneAbnormal', detail.trackMuted('microphone', 'fake mic')]]);
  });

  it('follows a replaced stream and lets go of the old one', () => {
    const first = new FakeTrack('video', 'first');
    const second = new FakeTrack('video', 'second');
    let streams: ProctorStreams = { camera: streamOf(first), microphone: null, screen: null };
    let notify = () => undefined as void;
    const { raise, raised } = recorder();
    watchTracks(raise, {
      get: () => streams,
      subscribe: (fn) => {
        notify = fn;
        return () => undefined;
      },
    });
    streams = { ...streams, camera: streamOf(second) };
    notify();
    first.dispatchEvent(new Event('ended'));
    expect(raised).toEqual([]);
    second.dispatchEvent(new Event('ended'));
    expect(raised.map(([r]) => r)).toEqual(['firstCameraAbnormal']);
  });
});

describe('phoneWatcher', () => {
  it('raises the second camera when the phone goes from sending to silent, once per drop', () => {
    const { raise, raised } = recorder();
    const status = phoneWatcher(raise);
    status(0);
    expect(raised).toEqual([]);
    status(1);
    status(0);
    status(0);
    expect(raised.map(([r]) => r)).toEqual(['secondCameraAbnormal']);
    status(1);
    status(0);
    expect(raised).toHaveLength(2);
  });
});

/** A document as far as the fullscreen watcher sees it: an element shown fullscreen or none, and its events. */
class FakeDocument extends EventTarget {
  fullscreenElement: Element | null = null;
  /** Sets the state, and reports it at once or later (as Chromium does at its next frame). */
  set(on: boolean, report = true): void {
    this.fullscreenElement = on ? ({} as Element) : null;
    if (report) this.report();
  }
  report(): void {
    this.dispatchEvent(new Event('fullscreenchange'));
  }
}

describe('watchFullscreen', () => {
  const watch = () => {
    const doc = new FakeDocument();
    const { raise, raised } = recorder();
    const states: boolean[] = [];
    const w = watchFullscreen(raise, (on) => states.push(on), doc as unknown as FullscreenDocument);
    return { doc, raised, states, w };
  };

  it('raises leaving fullscreen once per departure, never on entering', () => {
    const { doc, raised, states, w } = watch();
    doc.set(true);
    expect(raised).toEqual([]);
    doc.set(false);
    doc.set(true);
    doc.set(false);
    expect(raised.map(([risk]) => risk)).toEqual(['cancelFullscreen', 'cancelFullscreen']);
    expect(states).toEqual([true, false, true, false]);
    w.stop();
    doc.set(true);
    doc.set(false);
    expect(raised).toHaveLength(2);
  });

  it('raises a departure whose entering was reported only after it, once the request was known to succeed', () => {
    const { doc, raised, w } = watch();
    doc.set(true, false);
    w.entered();
    doc.set(false, false);
    doc.report(); // the late report of entering finds the document no longer fullscreen
    doc.report(); // and the report of leaving
    expect(raised.map(([risk]) => risk)).toEqual(['cancelFullscreen']);
  });

  it('raises nothing for changes it never saw entering', () => {
    const { doc, raised } = watch();
    doc.set(false);
    expect(raised).toEqual([]);
  });
});

describe('maskPhone', () => {
  it('hides the middle of a mobile number', () => {
    expect(maskPhone('86 13700137001')).toBe('86 137****7001');
  });
});

describe('watchClosedPage', () => {
  /** A window and localStorage for the watcher; answers a way to close the page. */
  function browser() {
    const win = new EventTarget();
    vi.stubGlobal('window', win);
    vi.stubGlobal('localStorage', memoryStorage());
    return { close: () => win.dispatchEvent(new Event('pagehide')) };
  }
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("raises a screen switch for the candidate's own page closed a while, not for a reload or another candidate's", () => {
    const page = browser();
    let now = 1_000_000;
    let owner = 1;
    const r = recorder();
    const watch = () =>
      watchClosedPage(
        5,
        r.raise,
        () => now,
        () => owner,
      );
    watch();
    page.close();
    // A reload: back at once.
    now += 1_000;
    watch();
    expect(r.raised).toEqual([]);
    page.close();
    // Another candidate on this browser, a while later: not their leaving.
    now += 600_000;
    owner = 2;
    watch();
    expect(r.raised).toEqual([]);
    // The first candidate back after the same while: their page was closed.
    owner = 1;
    watch();
    expect(r.raised.map(([risk]) => risk)).toEqual(['screenSwitch']);
  });
});
