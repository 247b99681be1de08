/**
 * The browser's defences, on every response (pages, assets, API, storage): a Content-Security-Policy with no
 * inline script (on the API's answers, one that allows nothing), no framing (the console and the candidate pages
 * alike: nothing needs to embed them, and a framed page invites clickjacking), nosniff, a referrer policy, and
 * HSTS when the site is served over https.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.js';
import { localStorageEndpoint } from '../storage/gateway.js';

/** One year: browsers keep to https for that long once they have seen the site over https. */
const HSTS_MAX_AGE_S = 365 * 24 * 60 * 60;

function originOf(url: string): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where the browser fetches stored media and uploads to: the local store under PUBLIC_URL, or the S3-compatible
 * endpoint (and its virtual-hosted bucket address, which presigned URLs use unless paths are forced).
 */
export function storageOrigins(config: Pick<Config, 'publicUrl' | 's3'>): string[] {
  if (!config.s3) return [originOf(localStorageEndpoint(config))].filter((o): o is string => o !== undefined);
  const endpoint = new URL(config.s3.endpoint);
  const origins = [endpoint.origin];
  if (!config.s3.forcePathStyle) origins.push(`${endpoint.protocol}//${config.s3.bucket}.${endpoint.host}`);
  return origins;
}

/** The Content-Security-Policy directives of the app (exported for the test that reads them back). */
export function cspDirectives(config: Config): Record<string, string[]> {
  const storage = storageOrigins(config);
  const reporting = [originOf(config.errorReportUrl), originOf(config.analyticsUrl)].filter(
    (o): o is string => o !== undefined,
  );
  const https = config.publicUrl.startsWith('https:');
  // Built files served from a CDN (ASSET_BASE_URL): its scripts, styles, fonts and pictures, and the service
  // worker's fetches of them.
  const assets = [originOf(config.assetBaseUrl)].filter((o): o is string => o !== undefined);
  return {
    'default-src': ["'self'"],
    // The built app is module scripts from its own origin (or its CDN) only: no inline script, no eval. The exam
    // page's face monitor compiles WebAssembly (the face models' backend), which needs 'wasm-unsafe-eval' and
    // allows no JavaScript eval.
    'script-src': ["'self'", "'wasm-unsafe-eval'", ...assets],
    'script-src-attr': ["'none'"],
    // Ant Design writes its styles at run time (CSS-in-JS) and React sets style attributes.
    'style-src': ["'self'", "'unsafe-inline'", ...assets],
    // QR codes are data: URLs; previews of captures and offline pictures are blob: URLs.
    'img-src': ["'self'", 'data:', 'blob:', ...assets, ...storage],
    // Listening audio comes from storage; an author previews an audio file as a blob: URL.
    'media-src': ["'self'", 'blob:', ...storage],
    // API calls and server-sent events are same-origin; pictures upload straight to storage.
    'connect-src': ["'self'", ...assets, ...storage, ...reporting],
    'font-src': ["'self'", 'data:', ...assets],
    // The service worker (/sw.js).
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * The security headers, computed once: helmet's answer to any request, since no header of ours depends on the
 * request (no per-response nonce). Helmet builds its policies anew on each call, so calling it per request would
 * parse the whole policy for every response.
 */
export function securityHeaderSet(config: Config): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(config))({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/** The defences that hold for data as for documents: kept on the API's answers. */
const DATA_HEADERS = [
  'x-frame-options',
  'x-content-type-options',
  'referrer-policy',
  'cross-origin-resource-policy',
  'strict-transport-security',
] as const;

/**
 * The security headers of the API's answers, which are data, never a document to render: a policy that allows
 * nothing at all (should a browser open an answer as a page) and never framed, with the data defences of the
 * full set. The page policy's dozen directives and the document-only headers (opener policy, agent clustering,
 * DNS prefetch, old browsers' download and XSS switches) say nothing about data, and every candidate call would
 * carry them: about 0.8 KB of each answer's 1.1 KB.
 */
export function apiSecurityHeaderSet(config: Config): Record<string, string> {
  const all = securityHeaderSet(config);
  const headers: Record<string, string> = { 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" };
  for (const name of DATA_HEADERS) if (all[name] !== undefined) headers[name] = all[name];
  return headers;
}

/**
 * Registers the security headers for every route of `app`: the full set on pages, assets and storage, the data
 * set on the API's calls (under API_PREFIX; with the API on a host of its own, every answer has the full set).
 */
export function securityHeaders(app: FastifyInstance, config: Config): void {
  const headers = securityHeaderSet(config);
  const apiHeaders = apiSecurityHeaderSet(config);
  const prefix = config.apiPrefix === '' ? null : `${config.apiPrefix}/`;
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(prefix !== null && request.url.startsWith(prefix) ? apiHeaders : headers);
    done();
  });
}

function helmetOptions(config: Config): HelmetOptions {
  const https = config.publicUrl.startsWith('https:');
  return {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config) },
    // DENY for browsers that predate frame-ancestors.
    frameguard: { action: 'deny' },
    // The Referer reaches our own origin (a fallback of the cross-origin check) and never another site, so a
    // page address holding a token (the phone page's QR link) does not leak to third parties.
    referrerPolicy: { policy: 'same-origin' },
    // Over plain http the header is meaningless (and would pin a developer's localhost to https).
    // Sub-domains are left out: other hosts under the cookie's parent domain may not all serve https.
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: false } : false,
    // An API on a host of its own (API_PREFIX empty) serves media links to pages of a sibling host.
    crossOriginResourcePolicy: { policy: 'same-site' },
  };
}

/**
 * The docs page's policy (@fastify/swagger-ui writes one with hashes of its scripts): never framed either, and
 * no upgrade to https where the site is served over http, which would break its assets.
 */
export function docsCsp(config: Pick<Config, 'publicUrl'>): (header: string) => string {
  const https = config.publicUrl.startsWith('https:');
  return (header) => {
    const framed = header.replace("frame-ancestors 'self'", "frame-ancestors 'none'");
    return https ? framed : framed.replace(/\s*upgrade-insecure-requests;?/, '');
  };
}
