import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { SettingsRepository } from '../repositories/settings.js';

/**
 * Short-lived signed links to stored media (e.g. listening audio). The secret lives in the database so
 * that every API process signs and checks the same way.
 */
export class MediaLinks {
  private secret: Promise<Buffer> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number,
  ) {}

  private key(): Promise<Buffer> {
    this.secret ??= new SettingsRepository(this.db)
      .getOrCreate('media_secret', () => randomBytes(32).toString('hex'))
      .then((hex) => Buffer.from(hex, 'hex'));
    return this.secret;
  }

  /** A token for `storageKey`, valid for `ttlMs`. */
  async sign(storageKey: string, ttlMs: number): Promise<string> {
    const payload = Buffer.from(JSON.stringify({ k: storageKey, e: this.clock() + ttlMs })).toString('base64url');
    const mac = createHmac('sha256', await this.key())
      .update(payload)
      .digest('base64url');
    return `${payload}.${mac}`;
  }

  /** The storage key of a valid token; 'forbidden' when forged, 'not_found' when expired. */
  async verify(token: string): Promise<string> {
    const [payload, mac] = token.split('.');
    if (!payload || !mac) throw fail('forbidden', 'invalid media link');
    // Compared as text: decoding base64 would accept other spellings of the same bytes.
    const want = Buffer.from(
      createHmac('sha256', await this.key())
        .update(payload)
        .digest('base64url'),
    );
    const got = Buffer.from(mac);
    if (got.length !== want.length || !timingSafeEqual(got, want)) throw fail('forbidden', 'invalid media link');
    const { k, e } = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { k: string; e: number };
    if (e < this.clock()) throw fail('not_found', 'the media link has expired');
    return k;
  }
}
