import { api, type CallDef } from '@examhall/contract';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../services/demoSeed.js';
import { createTestApp, type TestApp } from '../test/app.js';

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
        expect(res.statusCode, `${route.method} ${route.url}?${qs} -> ${res.body}`).toBeLessThan(500);
        const envelope = res.json() as { status: string; msg: unknown; code?: unknown };
        expect(['success', 'error']).toContain(envelope.status);
        expect(typeof envelope.msg).toBe('string');
        if (envelope.status === 'error') expect(typeof envelope.code).toBe('string');
      }),
      { numRuns: 3000 },
    );
  });
});
