/**
 * One signed POST to a webhook endpoint. The signature is the HMAC-SHA256 of `timestamp.body` with the
 * endpoint's secret, so a receiver checks both that the body is ours and that it is recent. Addresses are
 * http(s) only; redirects are not followed (a 3xx is a failed try), the answer's body is never read, and unless
 * the operator allows them, loopback, private, link-local and other non-public addresses are refused at the
 * moment of connecting (after DNS, so a name that resolves to one is refused too).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '@examhall/contract';

/** The signature header's value: `sha256=` and the hex HMAC-SHA256 of `timestamp.body`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** True when `signature` is the one `secret` makes of `timestamp.body` (compared in constant time). */
export function verifyWebhook(secret: string, signature: string, timestamp: number, body: string): boolean {
  const want = Buffer.from(signWebhook(secret, timestamp, body));
  const got = Buffer.from(signature);
  return want.length === got.length && timingSafeEqual(want, got);
}

/** IPv4 ranges a webhook may not reach unless the operator allows private ones. */
const NON_PUBLIC_V4 = new net.BlockList();
for (const [range, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  NON_PUBLIC_V4.addSubnet(range, bits, 'ipv4');
}
/** IPv6 ranges likewise (an IPv4 address written in IPv6 is checked as IPv4). */
const NON_PUBLIC_V6 = new net.BlockList();
for (const [range, bits] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC_V6.addSubnet(range, bits, 'ipv6');
}

/** True when an IP address is loopback, private, link-local, reserved or multicast. */
export function isNonPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return NON_PUBLIC_V4.check(address, 'ipv4');
  if (family !== 6) return true;
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return NON_PUBLIC_V4.check(dotted, 'ipv4');
  // The same written in hex, as URLs normalise it: ::ffff:7f00:1 is 127.0.0.1.
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return NON_PUBLIC_V4.check(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`, 'ipv4');
  }
  return NON_PUBLIC_V6.check(address, 'ipv6');
}

/** Refused before any byte is sent: the address is not one a webhook may reach. */
class AddressRefused extends Error {}

/** A DNS lookup that refuses non-public addresses (every address of the answer). */
function guardedLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const bad = addresses.find((a) => isNonPublicAddress(a.address));
    if (bad) return callback(new AddressRefused(`${hostname} resolves to a non-public address (${bad.address})`), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

/** What one try came to. */
export interface PostOutcome {
  /** The HTTP status answered, or null when none came. */
  status: number | null;
  /** True on a 2xx. */
  ok: boolean;
  /** What went wrong, or ''. */
  error: string;
}

/** How to post. */
export interface PostOptions {
  /** Give up on an answer after this long. */
  timeoutMs: number;
  /** True to let webhooks reach loopback and private addresses (an intranet's applicant-tracking system). */
  allowPrivate: boolean;
}

/** Posts `body` to `url`, signed with `secret` at `timestampS`; never throws. */
export function postSigned(
  url: string,
  secret: string,
  body: string,
  ids: { event: number; delivery: number },
  timestampS: number,
  opts: PostOptions,
): Promise<PostOutcome> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ status: null, ok: false, error: 'not an address' });
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return Promise.resolve({ status: null, ok: false, error: 'only http and https addresses are posted to' });
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (!opts.allowPrivate && net.isIP(host) !== 0 && isNonPublicAddress(host)) {
    return Promise.resolve({ status: null, ok: false, error: `${host} is not a public address` });
  }
  const payload = Buffer.from(body);
  const lib = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: PostOutcome) => {
      if (settled) return;
      settled = true;
      resolve(o);
    };
    const req = lib.request(
      target,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': payload.length,
          'user-agent': 'Examhall-Webhook/1',
          [WEBHOOK_EVENT_HEADER]: String(ids.event),
          'x-examhall-delivery': String(ids.delivery),
          [WEBHOOK_TIMESTAMP_HEADER]: String(timestampS),
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, timestampS, body),
        },
        ...(opts.allowPrivate ? {} : { lookup: guardedLookup as unknown as net.LookupFunction }),
        timeout: opts.timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        // The answer's body is not ours to read: drop it and settle on the status.
        res.resume();
        res.on('error', () => undefined);
        const ok = status >= 200 && status < 300;
        done({
          status,
          ok,
          error: ok ? '' : `answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
        });
        res.destroy();
      },
    );
    req.on('timeout', () => {
      req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`));
    });
    req.on('error', (err) => done({ status: null, ok: false, error: err.message || String(err) }));
    req.end(payload);
  });
}
