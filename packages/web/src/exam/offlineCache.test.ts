import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client.js';
import { rememberCandidate } from '../session/owner.js';
import { cached, recall, remember } from './offlineCache.js';
import { memoryStorage } from '../test/memoryStorage.js';

const offline = () => Promise.reject(new ApiError('network_error', 0, 'Failed to fetch'));

describe('the exam data kept in this browser, per candidate', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', memoryStorage());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("answers the copy without a network, and never one candidate's copy to another", async () => {
    rememberCandidate(11);
    expect(await cached('order:5', () => Promise.resolve({ list: ['q1', 'q2'] }))).toEqual({ list: ['q1', 'q2'] });
    await remember('attempt:5', { id: 70 });
    expect(await cached('order:5', offline)).toEqual({ list: ['q1', 'q2'] });
    expect(await recall('attempt:5')).toEqual({ id: 70 });

    // Another candidate logs in on this browser: without a network, they have no copy.
    rememberCandidate(12);
    await expect(cached('order:5', offline)).rejects.toMatchObject({ code: 'network_error' });
    expect(await recall('attempt:5')).toBeUndefined();

    // The first comes back: their copy is there.
    rememberCandidate(11);
    expect(await cached('order:5', offline)).toEqual({ list: ['q1', 'q2'] });
  });

  it('passes on an answer that is not a network failure, copy or not', async () => {
    rememberCandidate(11);
    await cached('order:6', () => Promise.resolve({ list: [] }));
    const refused = new ApiError('forbidden', 403, 'not yours');
    await expect(cached('order:6', () => Promise.reject(refused))).rejects.toBe(refused);
  });
});
