/**
 * Serving the built web app: its hashed files compressed at build time (brotli or gzip by Accept-Encoding, with
 * Vary) and cached for a year as immutable, since a new build gives them new names; the page (index.html) and the
 * service worker revalidated on every load, so a release reaches browsers at once. Both are read once at start and
 * written with the address the built files come from (ASSET_BASE_URL, a CDN, or this server), then kept compressed
 * in memory. The hashed scripts and styles (what every candidate's page loads at once) are kept in memory too with
 * their compressed copies, so a start wave's thousands of page loads touch no file; other built files (source maps,
 * the icon) are served from disk.
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

/** A response kept in memory with its compressed forms (a built file too small to compress has none). */
interface Rendered {
  type: string;
  cacheControl: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  etag: string;
}

/** Built files kept in memory, by extension, with their types. */
const KEPT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const etagOf = (identity: Buffer) => `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`;

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
    cacheControl: REVALIDATE,
    identity,
    br: brotliCompressSync(identity),
    gzip: gzipSync(identity, { level: 9 }),
    etag: etagOf(identity),
  };
}

/** The hashed scripts and styles under assets/ with the compressed copies the build wrote, by address. */
function keptAssets(dist: string): Map<string, Rendered> {
  const kept = new Map<string, Rendered>();
  const dir = path.join(dist, 'assets');
  if (!fs.existsSync(dir)) return kept;
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const type = KEPT_TYPES[path.extname(name)];
    const file = path.join(dir, name);
    if (!type || !fs.statSync(file).isFile()) continue;
    const identity = fs.readFileSync(file);
    const copy = (ext: string) => (fs.existsSync(file + ext) ? fs.readFileSync(file + ext) : undefined);
    const [br, gzip] = [copy('.br'), copy('.gz')];
    kept.set(`/assets/${name.split(path.sep).join('/')}`, {
      type,
      cacheControl: IMMUTABLE,
      identity,
      ...(br ? { br } : {}),
      ...(gzip ? { gzip } : {}),
      etag: etagOf(identity),
    });
  }
  return kept;
}

function sendRendered(request: FastifyRequest, reply: FastifyReply, page: Rendered): FastifyReply {
  reply.header('cache-control', page.cacheControl).header('etag', page.etag);
  // Files with compressed copies differ by Accept-Encoding, so caches must key them by it.
  if (page.br || page.gzip) reply.header('vary', 'Accept-Encoding');
  reply.type(page.type);
  if (request.headers['if-none-match'] === page.etag && reply.statusCode === 200) return reply.code(304).send();
  const encoding = pickEncoding(request.headers['accept-encoding']);
  const body = encoding ? page[encoding] : undefined;
  if (encoding && body) reply.header('content-encoding', encoding);
  return reply.send(body ?? page.identity);
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
  for (const [address, asset] of keptAssets(config.webDist)) {
    app.get(address, (request, reply) => sendRendered(request, reply, asset));
  }
  await app.register(fastifyStatic, {
    root: config.webDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    // The page, the worker and the kept scripts and styles are answered from memory (above); compressed copies are
    // chosen, not addressed.
    globIgnore: [
      'index.html',
      'sw.js',
      '**/*.br',
      '**/*.gz',
      ...Object.keys(KEPT_TYPES).map((ext) => `assets/**/*${ext}`),
    ],
    cacheControl: false,
    setHeaders: setFileHeaders(config.webDist),
  });
  return { served: true, sendPage: (request, reply) => sendRendered(request, reply, page) };
}
