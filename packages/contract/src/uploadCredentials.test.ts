import { describe, expect, it } from 'vitest';
import { STS_EXPIRY_MARGIN_MS, stsExpired } from './uploadCredentials.js';

const expiring = (at: number) => ({ Expiration: new Date(at).toISOString() });

describe('upload credentials spent', () => {
  it('counts credentials as spent from the margin before Expiration, and unreadable ones too', () => {
    const now = 1_000_000;
    expect(stsExpired(expiring(now + STS_EXPIRY_MARGIN_MS + 1), now)).toBe(false);
    expect(stsExpired(expiring(now + STS_EXPIRY_MARGIN_MS), now)).toBe(true);
    expect(stsExpired(expiring(now - 1), now)).toBe(true);
    expect(stsExpired({ Expiration: 'soon' }, now)).toBe(true);
  });
});
