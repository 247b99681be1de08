import { afterEach, describe, expect, it, vi } from 'vitest';
import { endSession, onSessionEnd } from './sessionEnd.js';

describe('session end', () => {
  const off: (() => void)[] = [];
  afterEach(() => {
    for (const f of off.splice(0)) f();
    vi.restoreAllMocks();
  });

  it('runs every registered forget, and not one unregistered', () => {
    const a = vi.fn();
    const b = vi.fn();
    off.push(onSessionEnd(a));
    const offB = onSessionEnd(b);
    offB();
    endSession();
    expect(a).toHaveBeenCalledOnce();
    expect(b).not.toHaveBeenCalled();
  });

  it('runs the others when one throws', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const after = vi.fn();
    off.push(
      onSessionEnd(() => {
        throw new Error('boom');
      }),
    );
    off.push(onSessionEnd(after));
    endSession();
    expect(after).toHaveBeenCalledOnce();
  });
});
