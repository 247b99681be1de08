import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, CLIENT_MESSAGES, JUDGE_WAIT_MS, REQUEST_TIMEOUT_MS, RETRY_POLICY } from '@examhall/contract';
import {
  ApiError,
  buildUrl,
  configureClient,
  describeError,
  encodeBody,
  errorText,
  isRetryable,
  loginPathFor,
  request,
  setPhoneToken,
} from './client.js';
import { cookieString, readCookie, removalStrings } from './cookies.js';
import { loadLanguage } from '../i18n/format.js';

// English is fetched when first chosen; these tests read it.
await loadLanguage('en-US');

describe('buildUrl', () => {
  it('appends the query, then auth and referer, skipping empty values', () => {
    const url = buildUrl(
      '/api/',
      '/exam/index',
      { page: 2, page_size: undefined, tag: ['a', 'b'] },
      'tok',
      'http://x/y?z=1',
    );
    const parsed = new URL(url, 'http://host');
    expect(parsed.pathname).toBe('/api/exam/index');
    expect(parsed.searchParams.get('page')).toBe('2');
    expect(parsed.searchParams.has('page_size')).toBe(false);
    expect(parsed.searchParams.getAll('tag')).toEqual(['a', 'b']);
    expect(parsed.searchParams.get('auth')).toBe('tok');
    expect(parsed.searchParams.get('referer')).toBe('http://x/y?z=1');
  });

  it('leaves auth and referer out when there are none', () => {
    expect(buildUrl('/api', '/user/area-code-list', undefined, null, null)).toBe('/api/user/area-code-list');
  });
});

describe('request types', () => {
  it('require what a call declares and refuse what it does not', () => {
    // Checked by the compiler; the function is never called.
    const typeOnly = () => {
      // @ts-expect-error login needs its body
      void request(api.login);
      // @ts-expect-error get-info takes no body
      void request(api.getInfo, { body: { x: 1 } });
      // @ts-expect-error send-msg needs a phone
      void request(api.sendMsg, { query: { area_code: '86' } });
      void request(api.getInfo);
      void request(api.examIndex, { query: {} });
    };
    expect(typeof typeOnly).toBe('function');
  });
});

describe('encodeBody', () => {
  it('sends form fields as strings and skips undefined ones', () => {
    const enc = encodeBody('form', { type: 1, note: undefined, ok: true, extra: { a: 1 } });
    expect(enc?.contentType).toBe('application/x-www-form-urlencoded');
    expect(String(enc?.body)).toBe('type=1&ok=true&extra=%7B%22a%22%3A1%7D');
  });

  it('sends JSON by default and nothing without a body', () => {
    expect(encodeBody(undefined, { a: 1 })).toEqual({ body: '{"a":1}', contentType: 'application/json' });
    expect(encodeBody(undefined, undefined)).toBeNull();
  });
});

describe('retry and login rules', () => {
  it('retries reads after network failures and 5xx only', () => {
    expect(isRetryable('GET', new ApiError('timeout', 0, 'x'))).toBe(true);
    expect(isRetryable('GET', new ApiError('internal_error', 500, 'x'))).toBe(true);
    expect(isRetryable('GET', new ApiError('rate_limited', 429, 'x'))).toBe(false);
    expect(isRetryable('GET', new ApiError('not_found', 404, 'x'))).toBe(false);
    expect(isRetryable('POST', new ApiError('internal_error', 500, 'x'))).toBe(false);
  });

  it('sends staff to the staff login and candidates to theirs', () => {
    expect(loginPathFor('candidate', '/exams?x=1')).toBe('/login?redirect=%2Fexams%3Fx%3D1');
    expect(loginPathFor('staff', '/admin/staff')).toBe('/admin/login?redirect=%2Fadmin%2Fstaff');
    expect(loginPathFor('candidate', '/admin')).toBe('/admin/login?redirect=%2Fadmin');
  });
});

describe('cookies', () => {
  it('reads a cookie among others', () => {
    expect(readCookie('a=1; auth=abc%20d; b=2', 'auth')).toBe('abc d');
    expect(readCookie('a=1; xauth=2', 'auth')).toBeNull();
    expect(readCookie('auth=', 'auth')).toBeNull();
  });

  it('writes and removes on the configured domain', () => {
    expect(cookieString('auth', 't', 30, 'example.com')).toMatch(
      /^auth=t; expires=.+; path=\/; SameSite=Lax; domain=example.com$/,
    );
    expect(removalStrings('auth', 'example.com')).toHaveLength(2);
    expect(removalStrings('auth', '')).toHaveLength(1);
  });
});

describe('failures in the page language', () => {
  const inLanguage = (lang: string | null) => configureClient({ getLanguage: () => lang });
  afterEach(() => inLanguage(null));

  it('speaks Chinese by code, keeping the server detail only where it names what to fix', () => {
    inLanguage('zh-CN');
    expect(errorText(new ApiError('exam_finished', 409, 'the exam has finished'))).toBe('考试已结束');
    expect(describeError('not_found', 'no such question in this exam')).toBe('未找到');
    expect(describeError('validation_error', 'phone: is required')).toBe('提交的内容有误（phone: is required）');
    expect(describeError('validation_error', 'validation error')).toBe('提交的内容有误');
    expect(describeError('language_unavailable', 'java: toolchain not installed on this host')).toBe(
      '服务器未安装该语言的编译运行环境（java: toolchain not installed on this host）',
    );
    expect(describeError('reference_solution_failed', 'question 12: hidden case 2 (2.in): WA')).toBe(
      '编程题的参考答案未通过某个测试用例（question 12: hidden case 2 (2.in): WA）',
    );
    expect(errorText(new ApiError('timeout', 0, CLIENT_MESSAGES.timeout))).toBe('响应超时，请重试');
    expect(errorText(new ApiError('network_error', 0, 'Failed to fetch'))).toBe('网络连接失败，请检查网络后重试');
  });

  it("shows the server's own English message in English, and the page's wording for plain defaults", () => {
    inLanguage('en-US');
    expect(describeError('not_found', 'no such question in this exam')).toBe('no such question in this exam');
    expect(describeError('exam_finished', 'the exam has finished')).toBe('The exam has finished');
    expect(describeError('timeout', CLIENT_MESSAGES.timeout)).toBe(CLIENT_MESSAGES.timeout);
    expect(describeError('network_error', 'Failed to fetch')).toBe(
      'Network connection failed; check your network and try again',
    );
  });

  it('words the details a failure carries: the tries left of a wrong SMS code, in either language', () => {
    const wrong = new ApiError('sms_code_invalid', 422, 'wrong verification code, 3 tries left', { tries_left: 3 });
    inLanguage('zh-CN');
    expect(errorText(wrong)).toBe('验证码错误，还可以再试 3 次');
    inLanguage('en-US');
    expect(errorText(wrong)).toBe('Wrong verification code: 3 tries left');
    // Without details the code's own text.
    inLanguage('zh-CN');
    expect(errorText(new ApiError('sms_code_invalid', 422, 'wrong verification code'))).toBe('验证码错误');
  });

  it('answers the message as it came when no language is chosen, and plain errors by their message', () => {
    inLanguage(null);
    expect(describeError('exam_finished', 'the exam has finished')).toBe('the exam has finished');
    inLanguage('zh-CN');
    expect(errorText(new Error('boom'))).toBe('boom');
    expect(errorText('plain')).toBe('plain');
  });
});

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

describe('request over HTTP', () => {
  let server: Server;
  let handler: Handler;
  let hits: { method: string; url: string; body: string; headers: IncomingMessage['headers'] }[];
  let navigations: string[];
  let logs: string[];
  let auth: string | null;

  const send = (res: ServerResponse, status: number, payload: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  };
  const fail = (res: ServerResponse, status: number, code: string, msg: string) =>
    send(res, status, { status: 'error', msg, code, data: null });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        hits.push({ method: req.method ?? '', url: req.url ?? '', body, headers: req.headers });
        handler(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    hits = [];
    navigations = [];
    logs = [];
    auth = 'token-1';
    const { port } = server.address() as AddressInfo;
    configureClient({
      baseUrl: `http://127.0.0.1:${port}/api`,
      getAuth: () => auth,
      getReferer: () => 'http://exam.test/exams',
      getCurrentPath: () => '/exams',
      navigate: (to) => navigations.push(to),
      getLanguage: () => 'zh-CN',
      log: (m) => logs.push(m),
      sleep: () => Promise.resolve(),
    });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends auth, referer and language, and answers validated data', async () => {
    handler = (_req, res) =>
      send(res, 200, { status: 'success', msg: '', data: { list: [], total: 0, extra: 'ignored' } });
    const data = await request(api.examIndex, { query: { page: 1 } });
    expect(data).toEqual({ list: [], total: 0 });
    const url = new URL(hits[0]!.url, 'http://h');
    expect(url.pathname).toBe('/api/exam/index');
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('auth')).toBe('token-1');
    expect(url.searchParams.get('referer')).toBe('http://exam.test/exams');
    expect(hits[0]!.headers['accept-language']).toBe('zh-CN');
  });

  it('posts JSON bodies', async () => {
    handler = (_req, res) =>
      send(res, 200, {
        status: 'success',
        msg: '',
        data: { auth: 'a', user_id: 1, phone: '13800138000', expires_at: 1 },
      });
    await request(api.login, { body: { phone: '13800138000', area_code: '86', code: '123456' } });
    expect(hits[0]!.method).toBe('POST');
    expect(hits[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(hits[0]!.body)).toEqual({ phone: '13800138000', area_code: '86', code: '123456' });
  });

  it('throws the envelope error with its code and message, without retrying a 4xx', async () => {
    handler = (_req, res) => fail(res, 429, 'sms_too_frequent', 'a code was sent recently');
    const err = await request(api.sendMsg, { query: { phone: '13800138000', area_code: '86' } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 'sms_too_frequent', status: 429, msg: 'a code was sent recently' });
    expect(hits).toHaveLength(1);
    expect(logs[0]).toContain('429');
  });

  it('retries a read twice after 5xx, then gives up', async () => {
    handler = (_req, res) => fail(res, 500, 'internal_error', 'server error');
    await expect(request(api.areaCodeList)).rejects.toMatchObject({ code: 'internal_error', status: 500 });
    expect(hits).toHaveLength(1 + RETRY_POLICY.retries);
    expect(logs.at(-1)).toContain('server error');
  });

  it('succeeds when a retry does', async () => {
    let n = 0;
    handler = (_req, res) =>
      ++n < 3
        ? fail(res, 503, 'maintenance', 'down')
        : send(res, 200, { status: 'success', msg: '', data: { list: [] } });
    await expect(request(api.areaCodeList)).resolves.toEqual({ list: [] });
    expect(hits).toHaveLength(3);
  });

  it('waits the retry delay between attempts', async () => {
    const waits: number[] = [];
    configureClient({ sleep: (ms) => (waits.push(ms), Promise.resolve()) });
    handler = (_req, res) => res.destroy();
    await expect(request(api.areaCodeList)).rejects.toMatchObject({ code: 'network_error', status: 0 });
    expect(waits).toEqual([RETRY_POLICY.delayMs, RETRY_POLICY.delayMs]);
  });

  it('never retries a write', async () => {
    handler = (_req, res) => fail(res, 500, 'internal_error', 'server error');
    await expect(request(api.logout)).rejects.toMatchObject({ status: 500 });
    expect(hits).toHaveLength(1);
  });

  it("times out with 'response timeout, please retry'", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    handler = () => undefined; // never answers
    const pending = request(api.logout).catch((e: unknown) => e);
    // setImmediate is left real, so this waits for the request to arrive without moving the clock.
    while (hits.length === 0) await new Promise((r) => setImmediate(r));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    let settled = false;
    void pending.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toMatchObject({ code: 'timeout', status: 0, msg: CLIENT_MESSAGES.timeout });
  });

  it('waits longer for a call that waits for the judge, as its catalogue entry says', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    handler = () => undefined; // never answers
    const pending = request(api.bankVerify, { body: { question_id: 1 } }).catch((e: unknown) => e);
    while (hits.length === 0) await new Promise((r) => setImmediate(r));
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS * 2);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(JUDGE_WAIT_MS - REQUEST_TIMEOUT_MS * 2);
    expect(await pending).toMatchObject({ code: 'timeout', status: 0 });
  });

  it('on 401 says not logged in and goes to the candidate login with the current path', async () => {
    handler = (_req, res) => fail(res, 401, 'not_logged_in', 'not logged in');
    await expect(request(api.getInfo)).rejects.toMatchObject({ status: 401, msg: CLIENT_MESSAGES.notLoggedIn });
    expect(navigations).toEqual(['/login?redirect=%2Fexams']);
  });

  it('on 403 of a candidate call does the same', async () => {
    handler = (_req, res) => fail(res, 403, 'forbidden', 'forbidden');
    await expect(request(api.examIndex, { query: {} })).rejects.toMatchObject({ msg: CLIENT_MESSAGES.notLoggedIn });
    expect(navigations).toEqual(['/login?redirect=%2Fexams']);
  });

  it('sends staff to the staff login', async () => {
    configureClient({ getCurrentPath: () => '/admin/staff' });
    handler = (_req, res) => fail(res, 401, 'not_logged_in', 'not logged in');
    await expect(request(api.staffMe)).rejects.toMatchObject({ status: 401 });
    expect(navigations).toEqual(['/admin/login?redirect=%2Fadmin%2Fstaff']);
  });

  it('keeps a login form on its page when the credentials are wrong', async () => {
    handler = (_req, res) => fail(res, 401, 'invalid_credentials', 'wrong phone number or password');
    await expect(request(api.staffLogin, { body: { phone: '1', password: 'x' } })).rejects.toMatchObject({
      code: 'invalid_credentials',
      msg: 'wrong phone number or password',
    });
    expect(navigations).toEqual([]);
  });

  it('goes to the 404 page on HTTP 404', async () => {
    handler = (_req, res) => fail(res, 404, 'not_found', 'not found');
    await expect(request(api.examIndex, { query: {} })).rejects.toMatchObject({ status: 404 });
    expect(navigations).toEqual(['/404']);
    expect(logs[0]).toContain('not found');
  });

  it('leaves a missing exam detail to the exam page, which shows its message', async () => {
    handler = (_req, res) => fail(res, 404, 'exam_detail_missing', 'failed to get exam detail');
    await expect(request(api.examShow, { query: { id: 1, anid: 1 } })).rejects.toMatchObject({
      code: 'exam_detail_missing',
      msg: 'failed to get exam detail',
    });
    expect(navigations).toEqual([]);
  });

  it('sends the phone token on phone calls and the candidate token on the others', async () => {
    setPhoneToken('phone-token');
    try {
      handler = (req, res) =>
        req.url?.startsWith('/api/phone/')
          ? send(res, 200, {
              status: 'success',
              msg: '',
              data: { exam_id: 1, exam_name: 'x', capture_interval: 30, phase: 2, end_time: null, server_time: 1 },
            })
          : send(res, 200, { status: 'success', msg: '', data: { list: [] } });
      await request(api.phoneSession);
      await request(api.areaCodeList);
      expect(new URL(hits[0]!.url, 'http://h').searchParams.get('auth')).toBe('phone-token');
      expect(new URL(hits[1]!.url, 'http://h').searchParams.get('auth')).toBe('token-1');
    } finally {
      setPhoneToken(null);
    }
  });

  it('leaves a refused phone link to the phone page instead of going to a login', async () => {
    setPhoneToken('old-token');
    try {
      handler = (_req, res) => fail(res, 401, 'phone_link_invalid', 'the link has expired');
      await expect(request(api.phoneSession)).rejects.toMatchObject({ code: 'phone_link_invalid', status: 401 });
      expect(navigations).toEqual([]);
    } finally {
      setPhoneToken(null);
    }
  });

  it('rejects success data that does not match the schema', async () => {
    handler = (_req, res) => send(res, 200, { status: 'success', msg: '', data: { list: 'nope' } });
    await expect(request(api.areaCodeList)).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('describes a status without an envelope', async () => {
    handler = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    };
    await expect(request(api.logout)).rejects.toMatchObject({ code: 'http_error', status: 502, msg: 'gateway error' });
  });

  it('omits auth when logged out', async () => {
    auth = null;
    handler = (_req, res) => send(res, 200, { status: 'success', msg: '', data: { list: [] } });
    await request(api.areaCodeList);
    expect(new URL(hits[0]!.url, 'http://h').searchParams.has('auth')).toBe(false);
  });
});
