/**
 * The webhook's one POST: non-public addresses refused unless the operator allows them (an IP written in the
 * address, and a name that resolves to one), redirects not followed, no answer within the limit a failed try.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startHookReceiver, type HookReceiver } from '../test/webhookReceiver.js';
import { isNonPublicAddress, postSigned, refusedWebhookAddress } from './webhookPost.js';

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

  it('tells public addresses from every non-public IPv4 and IPv6 form', () => {
    const nonPublic = [
      // IPv4: unspecified, private, loopback, link-local, CGNAT, IETF protocol, documentation, benchmarking,
      // multicast, reserved, broadcast.
      '0.0.0.0',
      '10.1.2.3',
      '127.0.0.1',
      '127.255.255.254',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.0.8',
      '192.0.2.1',
      '198.51.100.7',
      '203.0.113.9',
      '198.18.0.1',
      '224.0.0.1',
      '240.0.0.1',
      '255.255.255.255',
      // IPv6: loopback, unspecified, unique-local, link-local (with a zone too), site-local, multicast,
      // documentation, benchmarking, discard, ORCHID.
      '::1',
      '::',
      'fd00::1',
      'fc00::1',
      'fe80::1',
      'fe80::1%eth0',
      'fec0::1',
      'ff02::1',
      '2001:db8::1',
      '3fff::1',
      '2001:2::1',
      '100::1',
      '2001:20::1',
      // IPv4 inside IPv6: mapped (dotted and hex), translated (SIIT), IPv4-compatible, NAT64 of a private
      // address, local-use NAT64, 6to4 and Teredo.
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      '::ffff:0:7f00:1',
      '::ffff:0:a00:1',
      '::7f00:1',
      '::127.0.0.1',
      '::808:808',
      '64:ff9b::7f00:1',
      '64:ff9b::a00:1',
      '64:ff9b:1::808:808',
      '2002:7f00:1::1',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      // Not an address at all.
      'localhost',
      '',
    ];
    for (const a of nonPublic) expect(isNonPublicAddress(a), a).toBe(true);
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '2001:4860:4860::8888',
      '2606:4700:4700::1111',
      '::ffff:808:808',
      '::ffff:8.8.8.8',
      '::ffff:0:808:808',
      '64:ff9b::808:808',
    ])
      expect(isNonPublicAddress(a), a).toBe(false);
  });

  it('refuses to save an address written as a non-public IP or naming this machine, in every spelling', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://0177.0.0.1/',
      'http://[::1]/',
      'http://[::7f00:1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
      'http://[2002:a00:1::]/',
      'http://[fe80::1]/',
      'http://[fd12:3456::1]:8080/hook',
      'http://169.254.169.254/latest/meta-data/',
      'https://localhost/hook',
      'https://LOCALHOST./hook',
      'https://api.localhost/hook',
    ]) {
      expect(refusedWebhookAddress(url), url).toMatch(/is not a public address|is this machine/);
    }
    for (const url of ['https://ats.example.com/hooks', 'http://8.8.8.8/', 'https://[2001:4860:4860::8888]/x'])
      expect(refusedWebhookAddress(url), url).toBeUndefined();
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
    for (const host of ['::7f00:1', '::ffff:0:7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::']) {
      const wrapped = await postSigned(`http://[${host}]:${new URL(r.url).port}/`, SECRET, '{}', ids, 1, opts);
      expect(wrapped.error, host).toBe(`${host} is not a public address`);
    }
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
