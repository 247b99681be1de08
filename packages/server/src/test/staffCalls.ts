import type { CallDef } from '@examhall/contract';
import { expect } from 'vitest';
import { body, type TestApp } from './app.js';

/**
 * Catalogue calls of a test app as staff: `call` sends the query (GET) or the JSON body and answers the envelope
 * with the HTTP status; `ok` expects success and answers the data. The app and the default token are read at
 * each call (tests assign them in their set-up).
 */
export function staffCalls(app: () => TestApp, defaultToken: () => string) {
  async function call<T = unknown>(c: CallDef, input: Record<string, unknown> = {}, token = defaultToken()) {
    const res = await app().app.inject({
      method: c.method,
      url: `/api${c.path}`,
      headers: { authorization: `Bearer ${token}` },
      ...(c.method === 'GET'
        ? { query: Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])) }
        : { payload: input }),
    });
    return { ...body<T>(res), http: res.statusCode };
  }

  async function ok<T = unknown>(c: CallDef, input: Record<string, unknown> = {}, token = defaultToken()): Promise<T> {
    const res = await call<T>(c, input, token);
    expect(res.http, `${c.path}: ${res.msg}`).toBe(200);
    return res.data;
  }

  return { call, ok };
}
