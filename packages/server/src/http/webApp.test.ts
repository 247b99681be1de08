import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { IMMUTABLE, pickEncoding, renderIndexHtml, REVALIDATE } from './webApp.js';

const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => `word ${i}`))};\n`;
const INDEX = [
  '<!doctype html><html><head>',
  '<link rel="icon" type="image/svg+xml" href="./favicon.svg" />',
  '<script type="module" crossorigin src="./assets/index-Ab12Cd34.js"></script>',
  '<link rel="stylesheet" crossorigin href="./assets/index-Ef56Gh78.css">',
  `</head><body><div id="root"></div><!-- ${'padding '.repeat(80)}--></body></html>`,
].join('\n');
const SW = `const ASSET_BASE = /* ASSET_BASE */ '';\nconst ASSETS = ["assets/index-Ab12Cd34.js"];\n// ${'x'.repeat(600)}\n`;

/** A built web app in miniature as the build leaves it: relative addresses, compressed copies beside the files. */
function webDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'examhall-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const write = (rel: string, body: string, compress: boolean) => {
    fs.writeFileSync(path.join(dir, rel), body);
    if (!compress) return;
    fs.writeFileSync(path.join(dir, `${rel}.br`), brotliCompressSync(body));
    fs.writeFileSync(path.join(dir, `${rel}.gz`), gzipSync(body));
  };
  write('index.html', INDEX, true);
  write('sw.js', SW, true);
  write('assets/index-Ab12Cd34.js', SCRIPT, true);
  write('assets/index-Ef56Gh78.css', `body{margin:0}\n${'.a{color:red}\n'.repeat(60)}`, true);
  write('assets/tiny-Ij90Kl12.js', 'export {};\n', false);
  write('assets/index-Ab12Cd34.js.map', '{"version":3}', false);
  write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>', false);
  return dir;
}

function decoded(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString();
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString();
  return res.payload;
}

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
    expect(pickEncoding('br;q=0, gzip;q=0')).toBeUndefined();
  });
});

describe('renderIndexHtml', () => {
  it('points built files at the asset base and the rest at the root', () => {
    const html = renderIndexHtml(INDEX, 'https://cdn.example.com/exam');
    expect(html).toContain('src="https://cdn.example.com/exam/assets/index-Ab12Cd34.js"');
    expect(html).toContain('href="https://cdn.example.com/exam/assets/index-Ef56Gh78.css"');
    expect(html).toContain('href="/favicon.svg"');
    expect(renderIndexHtml(INDEX, '')).toContain('src="/assets/index-Ab12Cd34.js"');
    expect(renderIndexHtml(INDEX, '')).not.toContain('"./');
  });
});

describe('ASSET_BASE_URL', () => {
  it('takes an http(s) address and drops a trailing slash', () => {
    expect(loadConfig({}).assetBaseUrl).toBe('');
    expect(loadConfig({ ASSET_BASE_URL: 'https://cdn.example.com/exam/' }).assetBaseUrl).toBe(
      'https://cdn.example.com/exam',
    );
  });

  it.each(['cdn.example.com', 'ftp://cdn.example.com', 'https://cdn.example.com/?v=1', 'https://cdn.example.com/#a'])(
    'refuses %s',
    (value) => {
      expect(() => loadConfig({ ASSET_BASE_URL: value })).toThrow(ConfigError);
    },
  );
});

describe.each(await testedDialects())('the built web app on %s', (dialect) => {
  const dist = webDist();
  let t: TestApp;
  let cdn: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { env: { WEB_DIST: dist } });
    cdn = await createTestApp(dialect, { env: { WEB_DIST: dist, ASSET_BASE_URL: 'https://cdn.example.com/exam/' } });
  });
  afterAll(async () => {
    await t.close();
    await cdn.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = (app: TestApp, url: string, acceptEncoding?: string) =>
    app.app.inject({ url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('answers hashed files compressed by Accept-Encoding, with Vary, immutable for a year', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      const res = await get(t, '/assets/index-Ab12Cd34.js', accept);
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.headers['content-encoding'], String(accept)).toBe(encoding);
      expect(res.headers['content-type'], String(accept)).toMatch(/javascript/);
      expect(res.headers['cache-control'], String(accept)).toBe(IMMUTABLE);
      expect(res.headers.vary, String(accept)).toMatch(/Accept-Encoding/i);
      expect(decoded(res), String(accept)).toBe(SCRIPT);
    }
    const css = await get(t, '/assets/index-Ef56Gh78.css', 'br');
    expect(css.headers['content-encoding']).toBe('br');
    expect(css.headers['content-type']).toMatch(/text\/css/);
    expect(css.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('answers scripts and styles from memory (read once at start, 304 on their tag), source maps from disk', async () => {
    const first = await get(t, '/assets/index-Ab12Cd34.js', 'br');
    const again = await t.app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'if-none-match': first.headers.etag! },
    });
    expect(again.statusCode).toBe(304);
    // A file too small to have compressed copies is answered as it is, not keyed by Accept-Encoding.
    const tiny = await get(t, '/assets/tiny-Ij90Kl12.js', 'br');
    expect([tiny.statusCode, tiny.headers['content-encoding'], tiny.headers.vary]).toEqual([200, undefined, undefined]);
    expect(tiny.headers['cache-control']).toBe(IMMUTABLE);
    const map = await get(t, '/assets/index-Ab12Cd34.js.map');
    expect([map.statusCode, map.payload]).toEqual([200, '{"version":3}']);
    expect((await get(t, '/assets/missing-Zz99Zz99.js')).statusCode).toBe(404);
    // Kept in memory: the file gone from disk after start is still served whole.
    const file = path.join(dist, 'assets/index-Ab12Cd34.js');
    const saved = fs.readFileSync(file);
    fs.rmSync(file);
    try {
      const res = await get(t, '/assets/index-Ab12Cd34.js', 'identity');
      expect([res.statusCode, res.payload]).toEqual([200, SCRIPT]);
    } finally {
      fs.writeFileSync(file, saved);
    }
  });

  it('does not serve the compressed copies or the page under their own names', async () => {
    expect((await get(t, '/assets/index-Ab12Cd34.js.br')).statusCode).toBe(404);
    expect((await get(t, '/index.html.gz')).statusCode).toBe(404);
  });

  it('revalidates files outside assets/ (their names carry no hash)', async () => {
    const res = await get(t, '/favicon.svg', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(REVALIDATE);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('answers the page compressed and revalidated, its built files addressed from the root, and 304 when unchanged', async () => {
    for (const url of ['/', '/exams', '/exam/1/2/answer', '/no/such/page']) {
      const res = await get(t, url, 'br, gzip');
      expect(res.statusCode, url).toBe(url === '/no/such/page' ? 404 : 200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe(REVALIDATE);
      expect(res.headers.vary, url).toMatch(/Accept-Encoding/i);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(decoded(res), url).toContain('src="/assets/index-Ab12Cd34.js"');
    }
    const first = await get(t, '/exams', 'gzip');
    expect(first.headers['content-encoding']).toBe('gzip');
    const etag = String(first.headers.etag);
    const again = await t.app.inject({ url: '/exams', headers: { 'if-none-match': etag, 'accept-encoding': 'gzip' } });
    expect(again.statusCode).toBe(304);
    expect(again.payload).toBe('');
  });

  it('answers the service worker compressed and revalidated, told that the files come from this server', async () => {
    const res = await get(t, '/sw.js', 'gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe(REVALIDATE);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(decoded(res)).toContain(`const ASSET_BASE = "";`);
  });

  it('with ASSET_BASE_URL, points the page and the service worker at the CDN and lets the CSP load from it', async () => {
    const page = await get(cdn, '/exams');
    expect(page.payload).toContain('src="https://cdn.example.com/exam/assets/index-Ab12Cd34.js"');
    expect(page.payload).toContain('href="/favicon.svg"');
    const policy = String(page.headers['content-security-policy']);
    for (const directive of ['script-src', 'style-src', 'font-src', 'img-src', 'connect-src']) {
      const sources = policy.split(';').find((d) => d.trim().startsWith(`${directive} `)) ?? '';
      expect(sources, directive).toContain('https://cdn.example.com');
    }
    expect((await get(cdn, '/sw.js')).payload).toContain('const ASSET_BASE = "https://cdn.example.com/exam";');
    // Without it, scripts come from this origin only.
    const plain = String((await get(t, '/exams')).headers['content-security-policy']);
    expect(plain).toMatch(/script-src 'self' 'wasm-unsafe-eval';/);
    expect(plain).not.toContain('cdn.example.com');
  });
});
