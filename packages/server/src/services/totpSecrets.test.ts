/** TOTP secrets at rest: AES-256-GCM bound to the account, the key named, and the key kept in DATA_DIR without TOTP_KEY. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceLog } from '../log.js';
import { GENERATED_KEY_FILE, SEALED_PREFIX, TotpSecretBox, TotpSecretError, totpKey } from './totpSecrets.js';

const SECRET = 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD';

describe('TOTP secrets at rest', () => {
  const box = new TotpSecretBox(randomBytes(32));

  it('encrypts with a fresh IV each time into a value that says so, and decrypts it for its account', () => {
    const a = box.seal(SECRET, 7);
    const b = box.seal(SECRET, 7);
    expect(a.startsWith(`${SEALED_PREFIX}${box.keyId}:`)).toBe(true);
    expect(a).not.toBe(b);
    expect(a).not.toContain(SECRET);
    expect(TotpSecretBox.isSealed(a)).toBe(true);
    expect(box.open(a, 7)).toBe(SECRET);
    expect(box.open(b, 7)).toBe(SECRET);
  });

  it('answers a secret stored before encryption as it is', () => {
    expect(TotpSecretBox.isSealed(SECRET)).toBe(false);
    expect(box.open(SECRET, 7)).toBe(SECRET);
  });

  it('refuses a value moved to another account, altered, or written with another key (naming both keys)', () => {
    const sealed = box.seal(SECRET, 7);
    expect(() => box.open(sealed, 8)).toThrow(TotpSecretError);
    const parts = sealed.split(':');
    const altered = [...parts.slice(0, -2), Buffer.from('x'.repeat(20)).toString('base64url'), parts.at(-1)].join(':');
    expect(() => box.open(altered, 7)).toThrow(/does not decrypt/);
    const other = new TotpSecretBox(randomBytes(32));
    expect(() => other.open(sealed, 7)).toThrow(`encrypted with key ${box.keyId}, and TOTP_KEY is key ${other.keyId}`);
  });
});

describe('the TOTP key', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  const logged: string[] = [];
  const log = { warn: (_o: unknown, msg: string) => void logged.push(msg) } as unknown as ServiceLog;

  it('is TOTP_KEY when set, and then nothing is written to DATA_DIR', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-totp-'));
    const key = randomBytes(32);
    logged.length = 0;
    expect(totpKey({ totpKey: key, dataDir: dir }, log)).toBe(key);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('without TOTP_KEY is generated once in DATA_DIR, readable by its owner only, with a warning each time', () => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-totp-')), 'data');
    logged.length = 0;
    const first = totpKey({ totpKey: undefined, dataDir: dir }, log);
    const second = totpKey({ totpKey: undefined, dataDir: dir }, log);
    expect(first).toHaveLength(32);
    expect(second.equals(first)).toBe(true);
    const file = path.join(dir, GENERATED_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual([GENERATED_KEY_FILE]);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain('TOTP_KEY is not set');
    // What one process encrypted, the next start reads.
    expect(new TotpSecretBox(second).open(new TotpSecretBox(first).seal(SECRET, 1), 1)).toBe(SECRET);
  });

  it('refuses a key file that holds no key rather than making another', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-totp-'));
    fs.writeFileSync(path.join(dir, GENERATED_KEY_FILE), 'short\n');
    expect(() => totpKey({ totpKey: undefined, dataDir: dir! }, log)).toThrow(/does not hold a 32-byte key/);
  });
});
