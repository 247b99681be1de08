import type { StsData } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { CredentialCache } from './credentials.js';

function sts(expiresAt: number, n = 1): StsData {
  return {
    SecurityToken: `token-${n}`,
    AccessKeyId: `key-${n}`,
    AccessKeySecret: `secret-${n}`,
    Expiration: new Date(expiresAt).toISOString(),
    bucket: 'examhall',
    region: 'local',
    endpoint: 'http://127.0.0.1/storage',
    prefix: 'attempts/1/',
  };
}

describe('upload credentials (refetched when missing or past Expiration)', () => {
  it('fetches when missing, reuses until expiry, then fetches again', async () => {
    let now = 0;
    let fetches = 0;
    const cache = new CredentialCache(
      () => Promise.resolve(sts(now + 600_000, ++fetches)),
      () => now,
    );
    expect((await cache.get()).AccessKeyId).toBe('key-1');
    now += 60_000;
    expect((await cache.get()).AccessKeyId).toBe('key-1');
    now += 600_000;
    expect((await cache.get()).AccessKeyId).toBe('key-2');
    expect(fetches).toBe(2);
  });

  it('shares one fetch between concurrent uploads and fetches again after invalidate', async () => {
    let fetches = 0;
    const cache = new CredentialCache(() => Promise.resolve(sts(Date.now() + 600_000, ++fetches)));
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    expect(a).toBe(b);
    expect(fetches).toBe(1);
    cache.invalidate();
    expect((await cache.get()).AccessKeyId).toBe('key-2');
  });

  it('does not keep a failed fetch', async () => {
    let calls = 0;
    const cache = new CredentialCache(() =>
      ++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(sts(Date.now() + 600_000)),
    );
    await expect(cache.get()).rejects.toThrow('offline');
    await expect(cache.get()).resolves.toMatchObject({ AccessKeyId: 'key-1' });
  });
});
