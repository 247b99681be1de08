/**
 * One signed POST to a webhook endpoint. The signature is the HMAC-SHA256 of `timestamp.body` with the
 * endpoint's secret, so a receiver checks both that the body is ours and that it is recent. Addresses are
 * http(s) only; redirects are not followed (a 3xx is a failed try), the answer's body is never read, and unless
 * the operator allows them, loopback, private, link-local and other non-public addresses are refused when an
 * endpoint is saved (an address written in its URL) and again at the moment of connecting (after DNS, so a name
 * that resolves to one is refused too).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
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

/** NAT64's well-known prefix (RFC 6052): only it carries a global IPv4 address; 64:ff9b:1::/48 is for local use. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** Global unicast (RFC 4291): an IPv6 address outside it (IPv4-compatible ::a.b.c.d, discard-only, ...) is no Internet host. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/** The IPv4 address held in an IPv6 address's last 32 bits. */
function lastIPv4(a: ipaddr.IPv6): ipaddr.IPv4 {
  const [hi, lo] = [a.parts[6]!, a.parts[7]!];
  return new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
}

/**
 * Whether a webhook may reach an address: only ordinary unicast, as ipaddr.js names the special ranges (loopback,
 * private, carrier-grade NAT, link-local, unspecified, broadcast, multicast, documentation, benchmarking, AS112,
 * AMT, reserved; unique-local, site-local, discard, ORCHID, segment routing...). An IPv6 address that a host
 * reaches as IPv4 (mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96, NAT64's 64:ff9b::/96) is judged by its IPv4
 * address. 6to4 (2002::/16) and Teredo (2001::/32) tunnel through relays to an IPv4 address that a receiver has no
 * need of, so they are refused whole, like anything outside global unicast.
 */
function reachable(a: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (a.kind() === 'ipv4') return a.range() === 'unicast';
  const v6 = a as ipaddr.IPv6;
  if (v6.zoneId !== undefined) return false;
  const range = v6.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || (range === 'rfc6052' && v6.match(NAT64_WELL_KNOWN))) {
    return reachable(lastIPv4(v6));
  }
  return range === 'unicast' && v6.match(GLOBAL_UNICAST);
}

/** True when an IP address is not one a webhook may reach (see `reachable`); anything that is no address too. */
export function isNonPublicAddress(address: string): boolean {
  if (net.isIP(address.replace(/%.*$/, '')) === 0) return true;
  try {
    return !reachable(ipaddr.parse(address));
  } catch {
    return true;
  }
}

/**
 * Why a webhook address may not be saved, or undefined when it may: an IP written in it that is not public, or a
 * name that is this machine by definition (`localhost`, RFC 6761). Other names are checked once resolved, at
 * each POST (a name's addresses may change after it is saved).
 */
export function refusedWebhookAddress(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return 'not an address';
  }
  const bare = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (net.isIP(bare) !== 0) return isNonPublicAddress(bare) ? `${bare} is not a public address` : undefined;
  if (bare === 'localhost' || bare.endsWith('.localhost')) return `${bare} is this machine`;
  return undefined;
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
