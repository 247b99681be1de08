/**
 * Ids are strict on every call (a fuzz of /admin/proctor/end once ended a real attempt with `true` as its id):
 * each id field of each catalogue call, in a query, a JSON, form or multipart body, refuses values that only
 * look like 1, with 422 validation_error naming that field.
 */
import { api, idFields, type CallDef, type IdField } from '@examhall/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';
import { multipart } from '../test/multipart.js';
import { sampleOf, withField } from '../test/sample.js';

/** JSON values a coercing schema once read as 1, and other near misses. */
const BAD_JSON: unknown[] = [true, [1], '0x1', '1e0', '1', 1.5, 0, -1];
/** Text values that are not an id's digits. */
const BAD_TEXT: string[] = ['true', '[1]', '0x1', '1e0', '+1', ' 1', '1 ', '1.0', '0', '-1', ''];

interface Case {
  name: string;
  call: CallDef;
  part: 'query' | 'body';
  field: IdField;
}
const cases: Case[] = (Object.entries(api) as [string, CallDef][])
  .filter(([, c]) => c.live !== false)
  .flatMap(([name, call]) =>
    (['query', 'body'] as const).flatMap((part) => idFields(call[part]).map((field) => ({ name, call, part, field }))),
  );

describe('the catalogue can be sampled', () => {
  it.each(
    (Object.entries(api) as [string, CallDef][]).flatMap(([name, c]) =>
      (['query', 'body'] as const).filter((p) => idFields(c[p]).length > 0).map((p) => [name, p, c[p]] as const),
    ),
  )('%s %s: a valid sample exists, so the id is the only fault in each case below', (name, part, schema) => {
    const s = schema as z.ZodType;
    const parsed = z.safeParse(s, sampleOf(name, part, s));
    expect(parsed.error?.issues ?? []).toEqual([]);
  });
});

describe.each(await testedDialects())('ids are strict on %s', (dialect) => {
  let t: TestApp;
  let candidate = '';
  let staff = '';
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.seed('13800138000');
    candidate = await t.loginCandidate('13800138000');
    staff = await t.loginStaff('admin');
  });
  afterAll(async () => t.close());

  /** A fresh API token (a sampled revoke may have revoked an earlier one). */
  async function apiToken(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/integrations/token/create',
      headers: { authorization: `Bearer ${staff}` },
      payload: { name: 'Ids' },
    });
    return body<{ token: string }>(res).data.token;
  }

  /** Sends `call` with the id at `field` replaced by `bad` (as JSON, or as text in a query or form). */
  async function send(c: Case, bad: unknown, repeated = false, good = false): Promise<LightMyRequestResponse> {
    const { call, part, field } = c;
    const headers: Record<string, string> = {};
    let url = `/api${call.path}`;
    const params = new URLSearchParams();
    if (call.auth === 'candidate') params.set('auth', candidate);
    if (call.auth === 'staff') headers.authorization = `Bearer ${staff}`;
    if (call.auth === 'integration') headers.authorization = `Bearer ${await apiToken()}`;
    const query = call.query ? sampleOf(c.name, 'query', call.query) : undefined;
    const sentQuery = (part === 'query' ? withField(call.query!, query, field.path, bad) : query) as
      Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(sentQuery ?? {})) {
      for (const one of Array.isArray(v) ? v : [v]) params.append(k, String(one));
    }
    if (repeated) params.append(String(field.path[0]), '1');
    url += `?${params.toString()}`;
    // A good request for a stream asks with HEAD: its checks all run, without holding a stream open.
    const opts: InjectOptions = { method: call.stream && good ? 'HEAD' : call.method, url, headers };
    if (call.body) {
      const b = sampleOf(c.name, 'body', call.body);
      const sentBody = (part === 'body' ? withField(call.body, b, field.path, bad) : b) as Record<string, unknown>;
      if (call.bodyFormat === 'multipart') {
        const fields = Object.fromEntries(Object.entries(sentBody).map(([k, v]) => [k, String(v)]));
        const file = { field: call.upload?.field ?? 'file', name: 'a.png', type: 'image/png', data: Buffer.from('x') };
        const form = multipart(fields, file);
        opts.payload = form.payload;
        Object.assign(headers, form.headers);
      } else if (call.bodyFormat === 'form') {
        opts.payload = new URLSearchParams(
          Object.entries(sentBody).map(([k, v]): [string, string] => [k, String(v)]),
        ).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      } else {
        opts.payload = JSON.stringify(sentBody);
        headers['content-type'] = 'application/json';
      }
    }
    if (call.stream) headers.accept = 'text/event-stream';
    return t.app.inject(opts);
  }

  it('covers every call that takes an id', () => {
    expect(cases.length).toBeGreaterThan(80);
    expect(cases.every((c) => c.call.auth !== 'phone')).toBe(true);
  });

  it.each(cases.map((c) => [`${c.name} ${c.part}.${c.field.path.join('.')}`, c] as const))(
    '%s refuses values that only look like an id',
    async (_, c) => {
      const text = c.part === 'query' || c.call.bodyFormat === 'form' || c.call.bodyFormat === 'multipart';
      const bads: unknown[] = text ? BAD_TEXT : BAD_JSON;
      const fieldName = c.field.path.filter((p) => typeof p === 'string').at(-1) ?? '';
      // The same request with a good id gets past validation (or fails elsewhere): the id is what is refused.
      const good = await send(c, text ? '1' : 1, false, true);
      for (const bad of bads) {
        const res = await send(c, bad);
        const what = `${c.call.method} ${c.call.path} ${c.field.path.join('.')}=${JSON.stringify(bad)}: ${res.body}`;
        expect(res.statusCode, what).toBe(422);
        expect(body(res).code, what).toBe('validation_error');
        // An id inside a union (a section's fixed items or draw rule) is reported at the union.
        if (!body(res).msg.includes(fieldName))
          expect(good.body ? body(good).msg : '', `${what} vs ${good.body}`).not.toBe(body(res).msg);
      }
      if (c.part === 'query') {
        // `?id=1&id=1` is two values, not an id.
        const res = await send(c, '1', true);
        expect(res.statusCode, res.body).toBe(422);
      }
    },
  );
});
