import fs from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { miniWebDist } from '../test/webDist.js';
import { cspDirectives } from './headers.js';

/** The CSP header as directive -> sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

/** What every response of the app must carry, page or API; an API answer's policy allows nothing at all. */
function expectDefences(res: LightMyRequestResponse, what: string, api: boolean): void {
  const policy = csp(res);
  if (api) {
    expect(policy.get('default-src'), what).toEqual(["'none'"]);
    expect([...policy.keys()], what).toEqual(['default-src', 'frame-ancestors']);
    // The document-only headers stay off the data.
    expect(res.headers['cross-origin-opener-policy'], what).toBeUndefined();
    expect(res.headers['x-dns-prefetch-control'], what).toBeUndefined();
  } else {
    // WebAssembly for the exam page's face monitor, and no JavaScript eval ('unsafe-eval') with it.
    expect(policy.get('script-src'), what).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(policy.get('script-src-attr'), what).toEqual(["'none'"]);
    expect(policy.get('object-src'), what).toEqual(["'none'"]);
  }
  expect(policy.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('same-origin');
  expect(res.headers['cross-origin-resource-policy'], what).toBe('same-site');
}

describe.each(await testedDialects())('security headers on %s', (dialect) => {
  const dist = miniWebDist();
  let plain: TestApp;
  let secure: TestApp;
  beforeAll(async () => {
    plain = await createTestApp(dialect, { env: { WEB_DIST: dist, PUBLIC_URL: 'http://exam.example.com' } });
    secure = await createTestApp(dialect, { env: { WEB_DIST: dist, PUBLIC_URL: 'https://exam.example.com' } });
  });
  afterAll(async () => {
    await plain.close();
    await secure.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const urls = [
    '/', // a candidate page
    '/admin', // the staff console
    '/no/such/page',
    '/assets/a.js',
    '/api/common/site-config',
    '/api/user/get-info', // 401
    '/api/no/such/call',
  ];

  it('sends the CSP, no framing, nosniff and the referrer policy on pages, assets and the API; HSTS only over https', async () => {
    for (const url of urls) {
      const res = await plain.app.inject(url);
      expectDefences(res, `http ${url} (${res.statusCode})`, url.startsWith('/api/'));
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(csp(res).has('upgrade-insecure-requests'), url).toBe(false);
    }
    for (const url of urls) {
      const res = await secure.app.inject(url);
      expectDefences(res, `https ${url} (${res.statusCode})`, url.startsWith('/api/'));
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000');
      expect(csp(res).has('upgrade-insecure-requests'), url).toBe(!url.startsWith('/api/'));
    }
    // A path the router cannot even decode is answered before the headers' hook, yet not sniffed.
    expect((await plain.app.inject('/api/%')).headers['x-content-type-options']).toBe('nosniff');
    const page = await plain.app.inject('/admin');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });

  it('lets the page reach what it needs: storage, data: and blob: pictures, reporting addresses', async () => {
    const policy = csp(await plain.app.inject('/'));
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'http://exam.example.com']);
    expect(policy.get('media-src')).toEqual(["'self'", 'blob:', 'http://exam.example.com']);
    expect(policy.get('connect-src')).toEqual(["'self'", 'http://exam.example.com']);
    expect(policy.get('worker-src')).toEqual(["'self'"]);
  });

  it('keeps the docs page working under its own policy, still not framable', async () => {
    for (const [t, https] of [
      [plain, false],
      [secure, true],
    ] as const) {
      const res = await t.app.inject('/docs');
      expect(res.statusCode).toBe(200);
      expect(csp(res).get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp(res).has('upgrade-insecure-requests')).toBe(https);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });
});

describe('the policy follows the configuration', () => {
  const s3 = {
    S3_ENDPOINT: 'https://oss-cn-shanghai.aliyuncs.com/',
    S3_BUCKET: 'exams',
    S3_REGION: 'cn-shanghai',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'secret',
    S3_ROLE_ARN: 'acs:ram::1:role/upload',
  };
  it('lets media and uploads reach S3_ENDPOINT, path-style or by bucket host', () => {
    const pathStyle = cspDirectives(loadConfig({ ...s3, PUBLIC_URL: 'https://exam.example.com' }));
    expect(pathStyle['img-src']).toContain('https://oss-cn-shanghai.aliyuncs.com');
    expect(pathStyle['media-src']).toContain('https://oss-cn-shanghai.aliyuncs.com');
    expect(pathStyle['connect-src']).toContain('https://oss-cn-shanghai.aliyuncs.com');
    expect(pathStyle['img-src']).not.toContain('https://exam.example.com');
    const hosted = cspDirectives(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'false' }));
    expect(hosted['connect-src']).toContain('https://exams.oss-cn-shanghai.aliyuncs.com');
  });

  it('lets the error report and analytics addresses be reached', () => {
    const d = cspDirectives(
      loadConfig({ ERROR_REPORT_URL: 'https://errors.example.net/r', ANALYTICS_URL: 'https://stats.example.net/p' }),
    );
    expect(d['connect-src']).toEqual(
      expect.arrayContaining(['https://errors.example.net', 'https://stats.example.net']),
    );
  });
});
