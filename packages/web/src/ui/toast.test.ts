import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentToasts, dismissToast, showToast, subscribeToasts, TOAST_MS } from './toast.js';

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    for (const t of currentToasts()) dismissToast(t.id);
    vi.useRealTimers();
  });

  it('show a message and take it away after TOAST_MS', () => {
    showToast('warning', 'Pasting is not allowed');
    expect(currentToasts().map((t) => [t.type, t.content])).toEqual([['warning', 'Pasting is not allowed']]);
    vi.advanceTimersByTime(TOAST_MS - 1);
    expect(currentToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(currentToasts()).toEqual([]);
  });

  it('replace the message under the same key instead of stacking, and time it afresh', () => {
    showToast('warning', 'first', 'paste');
    vi.advanceTimersByTime(TOAST_MS - 100);
    showToast('warning', 'second', 'paste');
    showToast('info', 'other');
    expect(currentToasts().map((t) => t.content)).toEqual(['second', 'other']);
    vi.advanceTimersByTime(200);
    expect(currentToasts().map((t) => t.content)).toEqual(['second', 'other']);
  });

  it('tell subscribers of every change until they unsubscribe', () => {
    const heard = vi.fn();
    const stop = subscribeToasts(heard);
    const id = showToast('error', 'x');
    dismissToast(id);
    expect(heard).toHaveBeenCalledTimes(2);
    stop();
    showToast('error', 'y');
    expect(heard).toHaveBeenCalledTimes(2);
  });
});
