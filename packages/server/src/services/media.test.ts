import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../test/db.js';
import { MediaLinks } from './media.js';

describe('signed media links', () => {
  let db: TestDb;
  let now = 1_000_000;
  beforeEach(async () => {
    db = await openTestDb('sqlite');
  });
  afterEach(async () => db.drop());

  it('opens the key it signed until it expires, and nothing forged', async () => {
    const links = new MediaLinks(db.handle.db, () => now);
    const token = await links.sign('demo/a.wav', 60_000);
    expect(await links.verify(token)).toBe('demo/a.wav');
    const [payload, mac] = token.split('.') as [string, string];
    // The last character of a base64 signature also carries padding bits: its other spellings are refused too.
    const last = mac.at(-1)!;
    const sameBytes = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
      .split('')
      .filter(
        (c) => c !== last && Buffer.from(mac.slice(0, -1) + c, 'base64url').equals(Buffer.from(mac, 'base64url')),
      );
    expect(sameBytes.length).toBeGreaterThan(0);
    for (const c of sameBytes)
      await expect(links.verify(`${payload}.${mac.slice(0, -1)}${c}`)).rejects.toMatchObject({ code: 'forbidden' });
    const otherKey = Buffer.from(JSON.stringify({ k: 'resumes/1/secret.pdf', e: now + 60_000 })).toString('base64url');
    await expect(links.verify(`${otherKey}.${mac}`)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(links.verify('garbage')).rejects.toMatchObject({ code: 'forbidden' });
    now += 61_000;
    await expect(links.verify(token)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('signs alike in every process: the secret lives in the database', async () => {
    const a = new MediaLinks(db.handle.db, () => now);
    const b = new MediaLinks(db.handle.db, () => now);
    expect(await b.verify(await a.sign('demo/a.wav', 60_000))).toBe('demo/a.wav');
  });
});
