import { describe, expect, it, vi } from 'vitest';
import type { FaceFinding, FrameSeen } from './faceRule.js';
import { startFaceMonitor, type FaceReader } from './faceMonitor.js';

/** A reader that answers the frames' scenes in order, each read held until released. */
function scriptedReader(scenes: FrameSeen[]) {
  const pending: (() => void)[] = [];
  const reader: FaceReader = {
    read: () =>
      new Promise((resolve) => {
        const seen = scenes.shift()!;
        pending.push(() => resolve(seen));
      }),
    similarity: () => 1,
  };
  return { reader, release: () => pending.shift()?.() };
}
const face: FrameSeen = { faces: [{ embedding: [1] }], phoneScore: 0 };
const nobody: FrameSeen = { faces: [], phoneScore: 0 };
const frame = (key: string) => ({ picture: new Blob([key]), key });
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('startFaceMonitor', () => {
  it('loads the models at the first frame, reads it once they are in, and raises a problem naming its frame', async () => {
    const { reader, release } = scriptedReader([nobody, nobody, face]);
    const load = vi.fn(() => Promise.resolve(reader));
    const raised: [FaceFinding['problem'], string][] = [];
    const monitor = startFaceMonitor((f, key) => raised.push([f.problem, key]), load);
    expect(monitor.ready).toBeNull();
    expect(load).not.toHaveBeenCalled();
    monitor.frame(frame('f1'));
    expect(await monitor.ready).toBe(true);
    release();
    await settle();
    expect(raised).toEqual([['noFace', 'f1']]);
    // the same episode: not raised again
    monitor.frame(frame('f2'));
    await settle();
    release();
    await settle();
    expect(raised).toHaveLength(1);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('skips frames that come while one is being read', async () => {
    const { reader, release } = scriptedReader([face, nobody]);
    const raised: string[] = [];
    const monitor = startFaceMonitor(
      (_f, key) => raised.push(key),
      () => Promise.resolve(reader),
    );
    monitor.frame(frame('f1'));
    await monitor.ready;
    monitor.frame(frame('f2')); // f1 is still being read
    release();
    await settle();
    monitor.frame(frame('f3'));
    await settle();
    release();
    await settle();
    expect(raised).toEqual(['f3']);
  });

  it('goes quiet when the models cannot load, and after stop', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const raise = vi.fn();
    const broken = startFaceMonitor(raise, () => Promise.reject(new Error('no WebAssembly')));
    broken.frame(frame('f1'));
    expect(await broken.ready).toBe(false);
    broken.frame(frame('f2'));
    expect(warn).toHaveBeenCalledWith('[proctor] face monitor unavailable:', 'no WebAssembly');
    const { reader, release } = scriptedReader([nobody]);
    const stopped = startFaceMonitor(raise, () => Promise.resolve(reader));
    stopped.frame(frame('f1'));
    await stopped.ready;
    stopped.stop();
    release();
    await settle();
    expect(raise).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
