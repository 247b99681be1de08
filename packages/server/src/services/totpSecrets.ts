/**
 * Staff TOTP secrets at rest: AES-256-GCM under the configured key (TOTP_KEY), so a copy of the database (a backup,
 * a replica, a dump handed to support) does not hand out every account's second factor. A stored value says that
 * it is encrypted and under which key; a value without the prefix is a secret stored before encryption, read as it
 * is until the start-time pass (StaffTotpService.sealPlainSecrets) or the next write encrypts it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { ServiceLog } from '../log.js';

/** What an encrypted secret starts with; base32 secrets stored before encryption never hold a colon. */
export const SEALED_PREFIX = 'enc:aes-256-gcm:';

/** The file in DATA_DIR that holds the key generated when TOTP_KEY is not set (outside production). */
export const GENERATED_KEY_FILE = 'totp.key';

/** A stored secret that cannot be read with this key: another key, or a value altered or moved to another account. */
export class TotpSecretError extends Error {}

const b64 = (b: Buffer) => b.toString('base64url');

/** Binds a ciphertext to its account, so a value copied onto another account's row does not decrypt there. */
const aad = (staffId: number) => Buffer.from(`examhall:staff:${staffId}:totp`);

/** Encrypts and decrypts one deployment's TOTP secrets. */
export class TotpSecretBox {
  /** A short fingerprint of the key, stored with each secret: a changed key is named, not taken for tampering. */
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('a TOTP key is 32 bytes');
    this.keyId = createHash('sha256').update(key).digest('hex').slice(0, 8);
  }

  /** Whether a stored value is encrypted (else it is a secret stored before encryption). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(SEALED_PREFIX);
  }

  /** `enc:aes-256-gcm:<key id>:<iv>:<ciphertext>:<tag>`, base64url, with a fresh IV each time. */
  seal(secret: string, staffId: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(aad(staffId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${SEALED_PREFIX}${this.keyId}:${b64(iv)}:${b64(sealed)}:${b64(cipher.getAuthTag())}`;
  }

  /** The secret of a stored value of account `staffId`; a value stored before encryption is answered as it is. */
  open(stored: string, staffId: number): string {
    if (!TotpSecretBox.isSealed(stored)) return stored;
    const [keyId, iv, sealed, tag] = stored.slice(SEALED_PREFIX.length).split(':');
    if (keyId !== this.keyId) {
      throw new TotpSecretError(
        `staff ${staffId}'s TOTP secret was encrypted with key ${keyId}, and TOTP_KEY is key ${this.keyId}: set the key it was written with`,
      );
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv ?? '', 'base64url'));
      decipher.setAAD(aad(staffId));
      decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed ?? '', 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new TotpSecretError(
        `staff ${staffId}'s TOTP secret does not decrypt: it was altered or belongs to another account`,
      );
    }
  }
}

function parseKeyFile(file: string, text: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key in base64; remove it or set TOTP_KEY`);
  return key;
}

/**
 * The key of `file`, made first when there is none. Processes sharing DATA_DIR may start together: the key is
 * written whole to a file of this process's own and then linked into place, which only one of them can do, so
 * every process reads the same key and none reads a half-written one.
 */
function readOrCreateKey(file: string): Buffer {
  try {
    return parseKeyFile(file, fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const own = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(own, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(own, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(own, { force: true });
  }
  return parseKeyFile(file, fs.readFileSync(file, 'utf8'));
}

/**
 * The key TOTP secrets are encrypted with: TOTP_KEY, or (only outside production and a cluster, which config.ts
 * refuses to start without it) a random key generated once and kept in DATA_DIR/totp.key, with a warning each
 * start. Nothing is derived from other settings: a key guessed from them would protect nothing.
 */
export function totpKey(config: Pick<Config, 'totpKey' | 'dataDir'>, log: ServiceLog): Buffer {
  if (config.totpKey) return config.totpKey;
  const file = path.join(config.dataDir, GENERATED_KEY_FILE);
  const key = readOrCreateKey(file);
  log.warn(
    { file },
    'TOTP_KEY is not set: staff TOTP secrets are encrypted with the key generated in this file; in production set ' +
      'TOTP_KEY to its content (another key leaves the stored secrets unreadable until an admin resets them)',
  );
  return key;
}
