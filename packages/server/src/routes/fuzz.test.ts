import { api, idFields, type CallDef } from '@examhall/contract';
import { z } from 'zod';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../services/demoSeed.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { sampleOf, withField } from '../test/sample.js';

/** Query values that tend to break parsers: numbers, huge numbers, unicode, separators, repeats. */
const queryValue = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  fc.constantFrom('', '0', '-1', '1e309', 'NaN', 'null', '[]', '{}', '%', '%00', '13800138000', '86', 'x'.repeat(5000)),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const queryKey = fc.oneof(
  fc.constantFrom(
    'auth',
    'phone',
    'area_code',
    'code',
    'page',
    'page_size',
    'id',
    'anid',
    'exam_id',
    'referer',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 12 }),
);
const queryString = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 6 })
  .map((pairs) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&'));

/** Bodies: arbitrary JSON, near-valid objects, raw text under various content types. */
const bodyArb: fc.Arbitrary<Pick<InjectOptions, 'payload' | 'headers'>> = fc.oneof(
  fc.jsonValue().map((v) => ({ payload: JSON.stringify(v), headers: { 'content-type': 'application/json' } })),
  fc
    .record(
      {
        phone: queryValue,
        area_code: queryValue,
        code: queryValue,
        password: queryValue,
        name: queryValue,
        role: queryValue,
      },
      { requiredKeys: [] },
    )
    .map((v) => ({ payload: JSON.stringify(v), headers: { 'content-type': 'application/json' } })),
  fc
    .tuple(
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        'application/json',
        'application/x-www-form-urlencoded',
        'text/plain',
        'multipart/form-data',
        'application/xml',
        '',
      ),
    )
    .map(([payload, type]) => ({ payload, headers: type ? { 'content-type': type } : {} })),
);

/** Values an id must refuse: anything but a positive integer (as a number in JSON, digits in text). */
const notAnId = fc.oneof(
  fc.double().filter((d) => !Number.isInteger(d) || d <= 0),
  fc.integer({ max: 0 }),
  fc.constantFrom(2 ** 31, 2 ** 53, Number.MAX_VALUE),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }),
  fc.constantFrom('0x1', '1e0', '1.0', '+1', ' 1', '1 ', '01a', 'true', '[1]', '', '１', '٣', 'Infinity', '-0'),
  fc.string({ maxLength: 12 }).filter((v) => !/^[0-9]+$/.test(v)),
);

/** One part of a multipart body: a field or a file, under a name the calls use or any other. */
const partArb = fc.record({
  name: fc.oneof(
    fc.constantFrom('file', 'face_img', 'id_photo', 'exam_id', 'subject_id', 'attempt_id', 'phone', 'kind'),
    fc.string({ maxLength: 20 }),
  ),
  filename: fc.option(
    fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('a.png', '../../etc/passwd', 'x'.repeat(300))),
  ),
  type: fc.option(fc.constantFrom('image/png', 'image/jpeg', 'audio/mpeg', 'application/zip', 'text/plain', '', 'x/y')),
  data: fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 3000 }).map((b) => Buffer.from(b).toString('latin1')),
    fc.constantFrom('1', '0', '-1', '1e0', 'PK\u0003\u0004', '\u0089PNG\r\n\u001a\n', 'RIFF'),
  ),
});

/** A multipart body from parts, sometimes broken: a missing end, a wrong boundary, a cut in the middle. */
const multipartArb = fc
  .tuple(fc.array(partArb, { maxLength: 5 }), fc.constantFrom('whole', 'no-end', 'wrong-boundary', 'cut'), fc.nat())
  .map(([parts, shape, cutAt]) => {
    const boundary = 'fuzzboundary';
    const chunks = parts.map((p) => {
      const file = p.filename === null ? '' : `; filename="${p.filename.replaceAll('"', '')}"`;
      const type = p.type === null ? '' : `\r\nContent-Type: ${p.type}`;
      return `--${boundary}\r\nContent-Disposition: form-data; name="${p.name.replaceAll('"', '')}"${file}${type}\r\n\r\n${p.data}\r\n`;
    });
    let text = chunks.join('') + (shape === 'no-end' ? '' : `--${boundary}--\r\n`);
    if (shape === 'cut') text = text.slice(0, cutAt % (text.length + 1));
    const declared = shape === 'wrong-boundary' ? 'otherboundary' : boundary;
    return { payload: Buffer.from(text, 'latin1'), contentType: `multipart/form-data; boundary=${declared}` };
  });

/** Paths no router expects: long, percent-encoded junk, dot segments, control characters. */
const pathArb = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }).map((s) => `/api/${encodeURIComponent(s)}`),
  fc.constantFrom(
    '/api/%',
    '/api/%zz',
    '/api/%E0%A4%A',
    '/api/..%2f..%2fetc',
    '/api/%00',
    '/%',
    '/api//user//get-info',
    '/api/user/get-info/',
  ),
  fc.integer({ min: 1, max: 12_000 }).map((n) => `/api/${'a'.repeat(n)}`),
  fc.integer({ min: 1, max: 2_000 }).map((n) => `/api/user/${'%41'.repeat(n)}`),
  fc.integer({ min: 1, max: 500 }).map((n) => `/${'x/'.repeat(n)}`),
);

/** Queries far longer than any call takes (the parser's 16 KB limit itself is checked in http/envelope.test.ts). */
const longQueryArb = fc.oneof(
  fc.integer({ min: 1_000, max: 14_000 }).map((n) => `q=${'x'.repeat(n)}`),
  fc.integer({ min: 100, max: 1_500 }).map((n) => Array.from({ length: n }, (_, i) => `k${i}=${i}`).join('&')),
  fc.integer({ min: 100, max: 1_500 }).map((n) => `exam_id=${'1&exam_id='.repeat(n)}1`),
  fc.integer({ min: 1_000, max: 4_000 }).map((n) => `id=${'%25'.repeat(n)}`),
);

/** Object keys a file system or a store chokes on: over-long segments and keys, dot segments, odd bytes. */
const objectKeyArb = fc.oneof(
  fc.integer({ min: 256, max: 2_000 }).map((n) => `answers/1/1/${'y'.repeat(n)}.png`),
  fc.integer({ min: 100, max: 1_200 }).map((n) => 'x/'.repeat(n) + 'f.jpg'),
  fc.integer({ min: 60, max: 600 }).map((n) => `frame/${'𝔸'.repeat(n)}.jpg`),
  fc.constantFrom('', '/', '../../etc/passwd', 'a//b', 'frame/', 'frame/../../x', '%2e%2e/%2e%2e/x', 'a\\b', 'con'),
  fc.string({ minLength: 1, maxLength: 300 }),
);

/** Top-level fields of a call that name stored objects (key, image_key, files...), with the call's name. */
function keyFields(): { name: string; call: CallDef; part: 'query' | 'body'; field: string; many: boolean }[] {
  return (Object.entries(api) as [string, CallDef][])
    .filter(([, c]) => c.live !== false && !c.stream)
    .flatMap(([name, call]) =>
      (['query', 'body'] as const).flatMap((part) => {
        const schema = call[part];
        if (!(schema instanceof z.ZodObject)) return [];
        return Object.entries(schema.shape as Record<string, z.ZodType>)
          .filter(([field]) => /(^|_)(key|keys|files)$/.test(field))
          .map(([field, s]) => ({ name, call, part, field, many: s.safeParse(['a']).success }));
      }),
    );
}

type Answer = { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown };

/**
 * Every success or failure is the envelope, and never a server error. The exceptions: a download call whose query
 * is all optional (the import template) answers its file to any query, and a browser's sign-in step (a redirect
 * call) answers a redirect, to the login page naming the refusal when it refuses.
 */
function expectEnvelope(res: Answer, what: string, call?: CallDef): void {
  expect(res.statusCode, `${what} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (call?.download && res.statusCode === 200) {
    expect(res.headers['content-disposition'], what).toMatch(/^attachment;/);
    return;
  }
  if (call?.redirect && res.statusCode === 302) {
    expect(String(res.headers.location), what).toMatch(/^(\/admin|https?:)/);
    expect(String(res.headers.location), what).not.toContain('sso_error=internal_error');
    return;
  }
  const envelope = res.json() as { status: string; msg: unknown; code?: unknown };
  expect(['success', 'error'], what).toContain(envelope.status);
  expect(typeof envelope.msg, what).toBe('string');
  if (envelope.status === 'error') expect(typeof envelope.code, what).toBe('string');
}

describe('fuzzing every delivered endpoint', () => {
  let t: TestApp;
  let token = '';
  let staffToken = '';

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await seedDemo(t.db.handle.db, t.store, '13800138000', t.now());
    token = await t.loginCandidate('13800138000');
    staffToken = await t.loginStaff('admin');
  });
  afterAll(async () => t.close());

  /** Tokens of both callers, fresh: a property may have called the logouts (past the SMS resend wait). */
  async function freshTokens(): Promise<{ candidate: string; staff: string }> {
    t.advance(10 * 60_000);
    return { candidate: await t.loginCandidate('13800138000'), staff: await t.loginStaff('admin') };
  }

  it('serves exactly the catalogue calls that are live', () => {
    const live = Object.values(api).filter((c: CallDef) => c.live !== false);
    const served = t.routes.filter((r) => r.call).map((r) => r.call);
    expect(new Set(served)).toEqual(new Set(live));
    expect(served).toHaveLength(live.length);
  });

  it('never answers 5xx nor anything but the envelope to random queries and bodies', async () => {
    const apiRoutes = t.routes.filter((r) => r.call);
    const routeArb = fc.oneof(
      fc.constantFrom(...apiRoutes).map((r) => ({ method: r.method, url: r.url })),
      fc.record({
        method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH'),
        url: fc.constantFrom(...apiRoutes.map((r) => r.url), '/api/x', '/api/user/'),
      }),
    );
    const auth = fc.constantFrom<'none' | 'candidate' | 'staff'>('none', 'candidate', 'staff');
    await fc.assert(
      fc.asyncProperty(routeArb, queryString, bodyArb, auth, async (route, qs, b, who) => {
        const headers: Record<string, string> = { ...(b.headers as Record<string, string>) };
        if (who === 'staff') headers.authorization = `Bearer ${staffToken}`;
        const withBody = route.method !== 'GET' && route.method !== 'DELETE';
        const res = await t.app.inject({
          method: route.method as InjectOptions['method'],
          url: `${route.url}?${qs}${who === 'candidate' ? `&auth=${token}` : ''}`,
          headers,
          ...(withBody ? { payload: b.payload } : {}),
        });
        const call = apiRoutes.find((r) => r.method === route.method && r.url === route.url)?.call;
        expectEnvelope(res, `${route.method} ${route.url}?${qs}`, call);
      }),
      { numRuns: 3000 },
    );
  });

  it('never answers 5xx nor anything but the envelope to random multipart bodies on every upload call', async () => {
    const { candidate, staff } = await freshTokens();
    const uploads = t.routes
      .filter((r) => r.call?.bodyFormat === 'multipart')
      .map((r) => ({ method: r.method, url: r.url, auth: r.call!.auth }));
    expect(uploads.length).toBeGreaterThanOrEqual(5);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...uploads), multipartArb, queryString, async (route, form, qs) => {
        const headers: Record<string, string> = { 'content-type': form.contentType };
        if (route.auth === 'staff') headers.authorization = `Bearer ${staff}`;
        const res = await t.app.inject({
          method: route.method as InjectOptions['method'],
          url: `${route.url}?${qs}${route.auth === 'candidate' ? `&auth=${candidate}` : ''}`,
          headers,
          payload: form.payload,
        });
        expectEnvelope(res, `${route.method} ${route.url}`);
      }),
      { numRuns: 400 },
    );
  });

  it('refuses every id field of every call given anything but an id, with the 422 envelope', async () => {
    const { candidate, staff } = await freshTokens();
    // Other systems' calls take an API token; a sampled revoke may revoke one, so each case makes its own.
    const apiToken = async () =>
      (
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/admin/integrations/token/create',
            headers: { authorization: `Bearer ${staff}` },
            payload: { name: 'Fuzz' },
          })
        ).json() as { data: { token: string } }
      ).data.token;
    const cases = t.routes
      .filter((r) => r.call && !r.call.stream)
      .flatMap((r) =>
        (['query', 'body'] as const).flatMap((part) =>
          idFields(r.call![part])
            .filter((f) => f.path.length === 1)
            .map((f) => ({
              method: r.method,
              url: r.url,
              auth: r.call!.auth,
              format: r.call!.bodyFormat ?? 'json',
              upload: r.call!.upload?.field ?? 'file',
              part,
              name: String(f.path[0]),
            })),
        ),
      );
    expect(cases.length).toBeGreaterThan(60);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cases),
        notAnId,
        async ({ method, url: path, auth: who, format, upload, part, name }, value) => {
          const headers: Record<string, string> = {};
          if (who === 'staff') headers.authorization = `Bearer ${staff}`;
          if (who === 'integration') headers.authorization = `Bearer ${await apiToken()}`;
          const auth = who === 'candidate' ? `auth=${candidate}` : '';
          const text = typeof value === 'string' ? value : JSON.stringify(value);
          let url = `${path}?${auth}`;
          let payload: string | Buffer | undefined;
          if (part === 'query') url += `&${encodeURIComponent(name)}=${encodeURIComponent(text)}`;
          else if (format === 'form') {
            payload = new URLSearchParams({ [name]: text }).toString();
            headers['content-type'] = 'application/x-www-form-urlencoded';
          } else if (format === 'multipart') {
            const boundary = 'idfuzz';
            payload = Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${text}\r\n` +
                `--${boundary}\r\nContent-Disposition: form-data; name="${upload}"; filename="a.png"\r\n` +
                `Content-Type: image/png\r\n\r\nx\r\n--${boundary}--\r\n`,
            );
            headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
          } else {
            payload = JSON.stringify({ [name]: value });
            headers['content-type'] = 'application/json';
          }
          const res = await t.app.inject({
            method: method as InjectOptions['method'],
            url,
            headers,
            ...(payload === undefined || method === 'GET' ? {} : { payload }),
          });
          const what = `${method} ${path} ${part}.${name}=${text}`;
          expectEnvelope(res, what);
          expect(res.statusCode, `${what} -> ${res.body}`).toBe(422);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('never answers 5xx nor anything but the envelope to over-long or clashing object keys, in the API and the store', async () => {
    const { candidate, staff } = await freshTokens();
    // An attempt under way, so the evidence calls get as far as the keys (the samples name exam 1, the demo).
    const list = (await t.app.inject(`/api/exam/index?auth=${candidate}`)).json() as {
      data: { list: { id: number; anid: number }[] };
    };
    const demo = list.data.list[0]!;
    expect(demo.id).toBe(1);
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/monitor/start-exam?auth=${candidate}`,
      payload: { exam_id: demo.id, anid: demo.anid },
    });
    expect(started.statusCode, started.body).toBe(200);
    const cases = keyFields();
    expect(cases.length).toBeGreaterThan(3);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), objectKeyArb, async (c, key) => {
        const schema = c.call[c.part]!;
        const value = withField(schema, sampleOf(c.name, c.part, schema), [c.field], c.many ? [key] : key);
        const headers: Record<string, string> = {};
        if (c.call.auth === 'staff') headers.authorization = `Bearer ${staff}`;
        let url = `/api${c.call.path}?${c.call.auth === 'candidate' ? `auth=${candidate}` : ''}`;
        let payload: string | undefined;
        if (c.part === 'query') url += `&${new URLSearchParams(value as Record<string, string>).toString()}`;
        else if (c.call.bodyFormat === 'form') {
          payload = new URLSearchParams(value as Record<string, string>).toString();
          headers['content-type'] = 'application/x-www-form-urlencoded';
        } else {
          payload = JSON.stringify(value);
          headers['content-type'] = 'application/json';
        }
        const res = await t.app.inject({
          method: c.call.method as InjectOptions['method'],
          url,
          headers,
          ...(payload === undefined || c.call.method === 'GET' ? {} : { payload }),
        });
        expectEnvelope(res, `${c.call.method} ${c.call.path} ${c.field}=${key.slice(0, 80)}`);
      }),
      { numRuns: 600 },
    );
    // The local store's own protocol answers S3 errors, never a server error, whatever the key.
    await fc.assert(
      fc.asyncProperty(objectKeyArb, fc.constantFrom('GET', 'HEAD', 'PUT'), async (key, method) => {
        const res = await t.app.inject({
          method: method as InjectOptions['method'],
          url: `/storage/examhall/${key.split('/').map(encodeURIComponent).join('/')}`,
          ...(method === 'PUT' ? { payload: 'x' } : {}),
        });
        expect(res.statusCode, `${method} ${key.slice(0, 80)} -> ${res.body.slice(0, 200)}`).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });

  it('never answers 5xx nor anything but the envelope to over-long queries and odd or over-long paths', async () => {
    const { candidate, staff } = await freshTokens();
    const apiRoutes = t.routes
      .filter((r) => r.call && !r.call.stream)
      .map((r) => ({ method: r.method, url: r.url, call: r.call }));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          pathArb.map((path) => ({ method: 'GET', url: path, call: undefined })),
          fc
            .tuple(fc.constantFrom(...apiRoutes), longQueryArb)
            .map(([r, q]) => ({ method: r.method, url: `${r.url}?${q}`, call: r.call })),
        ),
        fc.constantFrom<'none' | 'candidate' | 'staff'>('none', 'candidate', 'staff'),
        async (req, who) => {
          const headers: Record<string, string> = {};
          if (who === 'staff') headers.authorization = `Bearer ${staff}`;
          const sep = req.url.includes('?') ? '&' : '?';
          const res = await t.app.inject({
            method: req.method as InjectOptions['method'],
            url: who === 'candidate' ? `${req.url}${sep}auth=${candidate}` : req.url,
            headers,
            ...(req.method === 'GET' ? {} : { payload: {} }),
          });
          expectEnvelope(res, `${req.method} ${req.url.slice(0, 120)}`, req.call);
        },
      ),
      { numRuns: 400 },
    );
  });
});
