/**
 * The webhook's one POST: non-public addresses refused unless the operator allows them (an IP written in the
 * address, and a name that resolves to one), redirects not followed, no answer within the limit a failed try.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startHookReceiver, type HookReceiver } from '../test/webhookReceiver.js';
import { isNonPublicAddress, postSigned } from './webhookPost.js';

const SECRET = 'unit-test-secret-0123';
const ids = { event: 1, delivery: 1 };

describe('postSigned', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
  });

  async function receiver(): Promise<HookReceiver> {
    const r = await startHookReceiver(SECRET);
    open.push(r);
    return r;
  }

  it('tells public addresses from loopback, private, link-local and the like', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '100.64.0.1',
    ]) {
      expect(isNonPublicAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '203.0.113.9', '2001:4860:4860::8888', '::ffff:808:808'])
      expect(isNonPublicAddress(a), a).toBe(false);
  });

  it('refuses a loopback address and a name resolving to one unless private addresses are allowed', async () => {
    const r = await receiver();
    const opts = { timeoutMs: 5_000, allowPrivate: false };
    const byIp = await postSigned(r.url, SECRET, '{}', ids, 1, opts);
    expect(byIp).toMatchObject({ ok: false, status: null, error: '127.0.0.1 is not a public address' });
    const byName = await postSigned(r.url.replace('127.0.0.1', 'localhost'), SECRET, '{}', ids, 1, opts);
    expect(byName.ok).toBe(false);
    expect(byName.error).toContain('non-public address');
    const metadata = await postSigned('http://169.254.169.254/latest/meta-data/', SECRET, '{}', ids, 1, opts);
    expect(metadata.error).toBe('169.254.169.254 is not a public address');
    const mapped = await postSigned('http://[::ffff:127.0.0.1]:9/', SECRET, '{}', ids, 1, opts);
    expect(mapped.error).toBe('::ffff:7f00:1 is not a public address');
    expect(r.received).toHaveLength(0);
    const allowed = await postSigned(r.url, SECRET, '{"a":1}', ids, 1, { ...opts, allowPrivate: true });
    expect(allowed).toEqual({ ok: true, status: 200, error: '' });
    expect(r.received[0]!.verified).toBe(true);
    expect((await postSigned('ftp://127.0.0.1/x', SECRET, '{}', ids, 1, opts)).ok).toBe(false);
  });

  it('does not follow a redirect, and gives up on a silent endpoint after the limit', async () => {
    const target = await receiver();
    const redirect = http.createServer((_req, res) => res.writeHead(307, { location: target.url }).end());
    await new Promise<void>((resolve) => redirect.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => redirect.close(() => resolve())) });
    const port = (redirect.address() as AddressInfo).port;
    const moved = await postSigned(`http://127.0.0.1:${port}/`, SECRET, '{}', ids, 1, {
      timeoutMs: 5_000,
      allowPrivate: true,
    });
    expect(moved).toMatchObject({ ok: false, status: 307 });
    expect(moved.error).toContain('redirects are not followed');
    expect(target.received).toHaveLength(0);

    target.hanging = true;
    const silent = await postSigned(target.url, SECRET, '{}', ids, 1, { timeoutMs: 300, allowPrivate: true });
    expect(silent).toEqual({ ok: false, status: null, error: 'no answer within 300 ms' });
  });
});
