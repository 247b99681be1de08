/** Errors raised before a route runs (by Node's HTTP parser or Fastify's router) still answer the envelope. */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { testedDialects } from '../test/db.js';

/** Sends raw bytes to the listening server and answers status line, headers and body as it came. */
function raw(port: number, request: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString();
      const [head = '', rest = ''] = text.split('\r\n\r\n', 2);
      resolve({ status: Number(head.split(' ')[1]), head, body: rest });
    });
  });
}

describe.each(await testedDialects())('every error keeps the envelope on %s', (dialect) => {
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => t.close());

  it('answers a malformed path with the 400 envelope, without echoing the address', async () => {
    for (const url of ['/api/%', '/api/%zz?auth=SECRET-TOKEN', '/%E0%A4%A', '/storage/%']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.headers['content-type']).toContain('application/json');
      expect(body(res)).toEqual({ status: 'error', code: 'bad_request', msg: expect.any(String), data: null });
      expect(res.body).not.toContain('SECRET-TOKEN');
    }
  });

  it('answers a query string past the header limit with the 431 envelope', async () => {
    const res = await raw(port, `GET /api/user/get-info?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(res.body)).toEqual({
      status: 'error',
      code: 'headers_too_large',
      msg: expect.any(String),
      data: null,
    });
  });

  it('answers a request line Node cannot parse with the 400 envelope', async () => {
    const res = await raw(port, 'GET /a b c HTTP/1.1\r\nHost: a\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'error', code: 'bad_request', data: null });
  });

  it('answers a very long path that fits the limit with the 404 envelope', async () => {
    const res = await raw(port, `GET /api/${'a'.repeat(8_000)} HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'error', code: 'not_found', data: null });
  });
});
