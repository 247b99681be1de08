/**
 * Serving the built web app: its hashed files compressed at build time (brotli or gzip by Accept-Encoding, with
 * Vary) and cached for a year as immutable, since a new build gives them new names; the page (index.html) and the
 * service worker revalidated on every load, so a release reaches browsers at once. Both are read once at start and
 * written with the address the built files come from (ASSET_BASE_URL, a CDN, or this server), then kept compressed
 * in memory.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/** Files under assets/ carry a content hash in their names: a browser may keep them as long as it likes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The page and the service worker: kept, but asked again (If-None-Match) before each use. */
export const REVALIDATE = 'no-cache';

/** A response kept in memory with its compressed forms. */
interface Rendered {
  type: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

/** The encoding to answer with: brotli when the client takes it, then gzip, else none (q=0 refuses). */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const takes = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip')) return 'gzip';
  return undefined;
}

/**
 * index.html with its asset addresses made absolute: built files (assets/) at `assetBase` (a CDN, or '' for this
 * server), the rest (the icon) at this server's root. The build writes them relative (`./assets/...`).
 */
export function renderIndexHtml(html: string, assetBase: string): string {
  return html
    .replace(/(\s(?:src|href)=")\.\/assets\//g, `$1${assetBase}/assets/`)
    .replace(/(\s(?:src|href)=")\.\//g, '$1/');
}

/** sw.js told where the built files come from. */
export function renderServiceWorker(js: string, assetBase: string): string {
  return js.replace("/* ASSET_BASE */ ''", JSON.stringify(assetBase));
}

function rendered(body: string, type: string): Rendered {
  const identity = Buffer.from(body);
  return {
    type,
    identity,
    br: brotliCompressSync(identity),
    gzip: gzipSync(identity, { level: 9 }),
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
  };
}

function sendRendered(request: FastifyRequest, reply: FastifyReply, page: Rendered): FastifyReply {
  reply.header('cache-control', REVALIDATE).header('vary', 'Accept-Encoding').header('etag', page.etag);
  reply.type(page.type);
  if (request.headers['if-none-match'] === page.etag && reply.statusCode === 200) return reply.code(304).send();
  const encoding = pickEncoding(request.headers['accept-encoding']);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? page[encoding] : page.identity);
}

/** Cache headers of a file served from the build (`file` is its path on disk, possibly its .br or .gz copy). */
function setFileHeaders(dist: string) {
  const compressed = new Map<string, boolean>();
  const hasCopies = (original: string) => {
    let known = compressed.get(original);
    if (known === undefined) compressed.set(original, (known = fs.existsSync(`${original}.br`)));
    return known;
  };
  return (res: { setHeader: (name: string, value: string) => unknown }, file: string) => {
    const rel = path.relative(dist, file).split(path.sep).join('/');
    res.setHeader('cache-control', rel.startsWith('assets/') ? IMMUTABLE : REVALIDATE);
    // Compressible files have compressed copies, so caches must key them by Accept-Encoding.
    if (hasCopies(file.replace(/\.(br|gz)$/, ''))) res.setHeader('vary', 'Accept-Encoding');
  };
}

/** What the rest of the app needs: whether the web app is served, and how to answer with its page. */
export interface WebApp {
  served: boolean;
  sendPage: (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
}

/** Serves the built web app of `config.webDist` (when there is one and the API has no host of its own). */
export async function registerWebApp(app: FastifyInstance, config: Config): Promise<WebApp> {
  const indexFile = path.join(config.webDist, 'index.html');
  if (config.apiPrefix === '' || !fs.existsSync(indexFile)) {
    return { served: false, sendPage: () => Promise.reject(new Error('no web app')) as never };
  }
  const page = rendered(
    renderIndexHtml(fs.readFileSync(indexFile, 'utf8'), config.assetBaseUrl),
    'text/html; charset=utf-8',
  );
  const swFile = path.join(config.webDist, 'sw.js');
  if (fs.existsSync(swFile)) {
    const sw = rendered(
      renderServiceWorker(fs.readFileSync(swFile, 'utf8'), config.assetBaseUrl),
      'text/javascript; charset=utf-8',
    );
    app.get('/sw.js', (request, reply) => sendRendered(request, reply, sw));
  }
  await app.register(fastifyStatic, {
    root: config.webDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The page and the worker are answered from memory (above); compressed copies are chosen, not addressed.
    globIgnore: ['index.html', 'sw.js', '**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders: setFileHeaders(config.webDist),
  });
  return { served: true, sendPage: (request, reply) => sendRendered(request, reply, page) };
}
