import type { CallDef } from '@examhall/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { body, type TestApp } from './app.js';
import { multipart } from './multipart.js';

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

/** A call's answer: the response, its raw body and status, and the envelope's fields when it is JSON. */
export interface SentCall<T> {
  res: LightMyRequestResponse;
  raw: string;
  http: number;
  data: T;
  code: string | undefined;
  msg: string;
}

function sent<T>(res: LightMyRequestResponse): SentCall<T> {
  const b = String(res.headers['content-type'] ?? '').startsWith('application/json') ? body<T>(res) : null;
  return { res, raw: res.body, http: res.statusCode, data: b?.data as T, code: b?.code, msg: b?.msg ?? '' };
}

/** Sends a catalogue call with a staff token: the query (array values repeat the key) and, unless GET, the JSON body. */
export async function sendAs<T>(
  t: TestApp,
  c: CallDef,
  input: { query?: Record<string, string | number | (string | number)[]>; body?: unknown },
  token: string,
): Promise<SentCall<T>> {
  const res = await t.app.inject({
    method: c.method,
    url: `/api${c.path}`,
    query: Object.fromEntries(
      Object.entries(input.query ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
    ),
    headers: { authorization: `Bearer ${token}` },
    ...(c.method === 'GET' ? {} : { payload: (input.body ?? {}) as object }),
  });
  return sent<T>(res);
}

/** Posts a multipart catalogue call with a staff token: `fields` and one file `name` holding `data`. */
export async function uploadAs<T>(
  t: TestApp,
  c: CallDef,
  fields: Record<string, string>,
  name: string,
  data: Buffer,
  token: string,
): Promise<SentCall<T>> {
  const form = multipart(fields, { name, type: 'application/octet-stream', data });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api${c.path}`,
    payload: form.payload,
    headers: { authorization: `Bearer ${token}`, ...form.headers },
  });
  return sent<T>(res);
}
