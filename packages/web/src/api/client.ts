/**
 * The one HTTP client of the web app. It applies the contract's client rules (docs/contract.md#client-rules):
 * the token from cookie `auth` and the page address go along as query parameters `auth` and
 * `referer`, a call gives up after REQUEST_TIMEOUT_MS, idempotent reads are retried, 401/403
 * lead to the right login page, 404 leads to the 404 page, and success data is checked against
 * the call's schema before anyone uses it.
 *
 * It has no React dependency: navigation, cookies and logging are injected with configureClient.
 */
import {
  AUTH_COOKIE,
  CLIENT_MESSAGES,
  ERROR_CODES,
  ERRORS,
  ErrorEnvelope,
  HTTP_STATUS_DESCRIPTIONS,
  REQUEST_TIMEOUT_MS,
  RETRY_POLICY,
  type CallBody,
  type CallData,
  type CallDef,
  type CallQuery,
  type ErrorCode,
} from '@examhall/contract';
import { errorKey, toLanguage, translate } from '../i18n/format.js';
import type { MessageKey } from '../i18n/zh.js';
import type { ClientErrorCode } from './clientErrorCode.js';
import { readCookie } from './cookies.js';

/** A failed call: a catalogue code from the server's envelope, or one of the client's own. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** Stable id: the envelope's `code`, or a client code. */
    readonly code: ErrorCode | ClientErrorCode,
    /** HTTP status, 0 when no response arrived. */
    readonly status: number,
    /** Message for people. */
    readonly msg: string,
    /** Details the server sent for the page to word (e.g. tries left), or null. */
    readonly data: Readonly<Record<string, string | number>> | null = null,
  ) {
    super(msg);
  }
}

/** True when `e` is an ApiError. */
export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** A call refused because the session is gone (expired, revoked, logged out elsewhere). */
export class SessionGoneError extends ApiError {}

/** True when `e` says the session is gone: the work can wait for a new login, it is not refused for good. */
export function isSessionGone(e: unknown): e is SessionGoneError {
  return e instanceof SessionGoneError;
}

/** The page that keeps its place when the session goes, instead of leaving for the login page. */
let sessionKeeper: (() => void) | null = null;

/**
 * While `onGone` is registered, a call that finds the session gone tells it instead of leaving for the login
 * page (the exam page keeps the candidate where they are and offers logging in again). Answers the unregister.
 */
export function keepSessionHere(onGone: () => void): () => void {
  sessionKeeper = onGone;
  return () => {
    if (sessionKeeper === onGone) sessionKeeper = null;
  };
}

/** The text to show for a failure, in the page's language: see {@link describeError}. */
export function errorText(e: unknown): string {
  if (isApiError(e)) return describeError(e.code, e.msg, e.data);
  return e instanceof Error ? e.message : String(e);
}

/** Texts of codes whose failures carry details in `data`, worded with them. */
const DATA_TEXTS: Partial<Record<ErrorCode | ClientErrorCode, MessageKey>> = {
  sms_code_invalid: 'error.sms_code_invalid.triesLeft',
  // Texts a budget held back: how many, the budget's figure and when to try again.
  sms_resend_too_frequent: 'error.sms_resend_too_frequent.held',
  sms_resend_daily_limit: 'error.sms_resend_daily_limit.held',
  sms_phone_daily_limit: 'error.sms_phone_daily_limit.held',
  sms_exam_daily_limit: 'error.sms_exam_daily_limit.held',
  sms_team_daily_limit: 'error.sms_team_daily_limit.held',
};

/** Codes whose message from the server names what was wrong (a field, a language): it is kept next to the text. */
const DETAILED_CODES: ReadonlySet<ErrorCode | ClientErrorCode> = new Set([
  'bad_request',
  'validation_error',
  'language_unavailable',
  // The server names the question, section or case to fix.
  'question_invalid',
  'exam_invalid',
  'draw_pool_too_small',
  'reference_solution_failed',
]);

/**
 * A failure as the page shows it. The server words its messages in English and names specifics
 * ("no such question in this exam"); the page speaks the candidate's language. So: in English the
 * server's own message, unless it is only the catalogue's default or the client's (then the page's
 * wording); in Chinese the code's text, with the server's message after it where it names what to fix.
 * Outside a page with a language chosen, the message as it came.
 */
export function describeError(
  code: ErrorCode | ClientErrorCode,
  msg: string,
  data: Readonly<Record<string, string | number>> | null = null,
): string {
  const chosen = env.getLanguage();
  if (chosen === null) return msg;
  const lang = toLanguage(chosen);
  // A code with details has a text of its own that words them (tries left of a wrong code).
  const withData = DATA_TEXTS[code];
  if (withData && data) return translate(lang, withData, data);
  const text = translate(lang, errorKey(code));
  const specific =
    msg !== '' && msg !== (code in ERRORS ? ERRORS[code as ErrorCode].msg : undefined) && code !== 'network_error';
  if (lang === 'en-US') return specific ? msg : text;
  return specific && DETAILED_CODES.has(code) ? translate(lang, 'error.withDetail', { text, detail: msg }) : text;
}

/** What the client needs from its surroundings; the browser defaults are set below. */
export interface ClientEnv {
  /** Origin and prefix of the API, e.g. '/api' or 'http://127.0.0.1:3000/api'. */
  baseUrl: string;
  /** The candidate token, or null when logged out. */
  getAuth: () => string | null;
  /** The phone page's token (from its QR link) for calls with auth 'phone'; never the candidate cookie. */
  getPhoneAuth: () => string | null;
  /** The page address sent as `referer`, or null outside a browser. */
  getReferer: () => string | null;
  /** Path and query of the current page, used as the login page's `redirect`. */
  getCurrentPath: () => string;
  /** Goes to another page of the app. */
  navigate: (to: string) => void;
  /** Language for the server's messages, e.g. 'zh-CN'; null to let the browser decide. */
  getLanguage: () => string | null;
  /** Where status descriptions and failures are written. */
  log: (message: string) => void;
  /** Waits `ms` milliseconds (between retries). */
  sleep: (ms: number) => Promise<void>;
}

const inBrowser = typeof window !== 'undefined' && typeof document !== 'undefined';

const env: ClientEnv = {
  baseUrl: '/api',
  getAuth: () => (inBrowser ? readCookie(document.cookie, AUTH_COOKIE) : null),
  getPhoneAuth: () => null,
  getReferer: () => (inBrowser ? window.location.href : null),
  getCurrentPath: () => (inBrowser ? window.location.pathname + window.location.search : '/'),
  navigate: (to) => {
    // Until the router registers itself, a full page load still reaches the right page.
    if (inBrowser) window.location.assign(to);
  },
  getLanguage: () => null,
  log: (message) => console.warn(message),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Replaces parts of the client's surroundings (the router registers its navigate here). */
export function configureClient(patch: Partial<ClientEnv>): void {
  Object.assign(env, patch);
}

/** Sets how the client moves to another page. */
export function setNavigator(navigate: (to: string) => void): void {
  env.navigate = navigate;
}

/**
 * Sets the token the phone page's calls (auth 'phone') carry as `auth`. It is kept in memory
 * only: the candidate's cookie on the same browser is neither read for nor overwritten by them.
 */
export function setPhoneToken(token: string | null): void {
  env.getPhoneAuth = () => token;
}

/** The token a call carries: the phone token for phone calls, else the candidate cookie. */
function authFor(call: CallDef): string | null {
  return call.auth === 'phone' ? env.getPhoneAuth() : env.getAuth();
}

/** The query and body a call takes: required when the call declares them, absent when it does not. */
export type RequestInput<C extends CallDef> = (CallQuery<C> extends undefined
  ? { query?: undefined }
  : { query: CallQuery<C> }) &
  (CallBody<C> extends undefined ? { body?: undefined } : { body: CallBody<C> }) & {
    /** Cancels the call (TanStack Query passes one). */
    signal?: AbortSignal;
  };

/** The input argument may be left out when the call needs neither query nor body. */
type InputArgs<C extends CallDef> =
  Record<string, never> extends Omit<RequestInput<C>, 'signal'> ? [input?: RequestInput<C>] : [input: RequestInput<C>];

type QueryValue = string | number | boolean | null | undefined;

/** Builds the call's URL: its path, its query, then `auth` and `referer`. */
export function buildUrl(
  baseUrl: string,
  path: string,
  query: Readonly<Record<string, unknown>> | undefined,
  auth: string | null,
  referer: string | null,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    appendParam(params, key, value as QueryValue);
  }
  if (auth) params.set('auth', auth);
  if (referer) params.set('referer', referer);
  const qs = params.toString();
  return `${baseUrl.replace(/\/+$/, '')}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * The full address of a call with its query, the token (the current one unless `auth` is given) and
 * the referer: for the requests fetch cannot make, EventSource streams and sendBeacon on unload.
 */
export function urlFor<C extends CallDef>(
  call: C,
  query?: CallQuery<C> extends undefined ? undefined : CallQuery<C>,
  auth: string | null = env.getAuth(),
): string {
  return buildUrl(env.baseUrl, call.path, query as Record<string, unknown> | undefined, auth, env.getReferer());
}

function appendParam(params: URLSearchParams, key: string, value: QueryValue | readonly QueryValue[]): void {
  if (Array.isArray(value)) {
    for (const v of value as readonly QueryValue[]) appendParam(params, key, v);
    return;
  }
  if (value === undefined || value === null) return;
  params.append(key, String(value));
}

/**
 * Encodes a body as the call declares. Form fields are sent as strings and undefined fields
 * are left out rather than sent empty, which is how the risk record forms are read.
 */
export function encodeBody(
  format: CallDef['bodyFormat'],
  body: unknown,
): { body: BodyInit; contentType: string | null } | null {
  if (body === undefined) return null;
  if (format === 'form' || format === 'multipart') {
    const entries = Object.entries(body as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (format === 'form') {
      const params = new URLSearchParams();
      for (const [k, v] of entries) params.append(k, stringifyField(v));
      return { body: params, contentType: 'application/x-www-form-urlencoded' };
    }
    const form = new FormData();
    for (const [k, v] of entries) form.append(k, v instanceof Blob ? v : stringifyField(v));
    // The browser writes the multipart boundary itself.
    return { body: form, contentType: null };
  }
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

function stringifyField(v: unknown): string {
  if (v === null) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** True when a failed attempt may be repeated: reads only, and never after a 4xx answer. */
export function isRetryable(method: CallDef['method'], error: ApiError): boolean {
  if (method !== 'GET') return false;
  return error.status === 0 || error.status >= 500;
}

/** The login page for a call that found no valid session. */
export function loginPathFor(callAuth: CallDef['auth'], currentPath: string): string {
  const staff = callAuth === 'staff' || currentPath === '/admin' || currentPath.startsWith('/admin/');
  const login = staff ? '/admin/login' : '/login';
  return `${login}?redirect=${encodeURIComponent(currentPath)}`;
}

const isErrorCode = (v: unknown): v is ErrorCode =>
  typeof v === 'string' && (ERROR_CODES as readonly string[]).includes(v);

function describeStatus(status: number): string {
  return HTTP_STATUS_DESCRIPTIONS[status] ?? `HTTP ${status}`;
}

/**
 * Turns a response into the call's data or an ApiError. Pure apart from reading the body, so
 * the rules can be tested without a router.
 */
export async function readResponse<C extends CallDef>(call: C, res: Response): Promise<CallData<C>> {
  return (await readEnvelope(call, res)).data;
}

/** A call's data with the envelope's `msg`, for the calls whose success may carry a message to show. */
export interface WithMessage<T> {
  data: T;
  msg: string;
}

async function readEnvelope<C extends CallDef>(call: C, res: Response): Promise<WithMessage<CallData<C>>> {
  let payload: unknown;
  try {
    payload = await res.json();
  } catch {
    payload = undefined;
  }
  const envelope = isEnvelope(payload) ? payload : null;

  if (envelope?.status === 'success' && res.ok) {
    const parsed = call.data.safeParse(envelope.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || 'data'}: ${issue.message}` : 'data';
      throw new ApiError('invalid_response', res.status, `unexpected response from ${call.path} (${where})`);
    }
    return { data: parsed.data as CallData<C>, msg: envelope.msg ?? '' };
  }
  if (envelope?.status === 'error' && isErrorCode(envelope.code)) {
    const details = ErrorEnvelope.shape.data.safeParse(envelope.data);
    throw new ApiError(
      envelope.code,
      res.status,
      envelope.msg || describeStatus(res.status),
      details.success ? details.data : null,
    );
  }
  if (res.ok) {
    throw new ApiError('invalid_response', res.status, `unexpected response from ${call.path}`);
  }
  throw new ApiError('http_error', res.status, describeStatus(res.status));
}

interface Envelope {
  status: 'success' | 'error';
  msg: string;
  data: unknown;
  code?: unknown;
}

function isEnvelope(v: unknown): v is Envelope {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (o.status === 'success' || o.status === 'error') && (typeof o.msg === 'string' || o.msg === undefined);
}

/** One attempt: fetch with the time limit, then read the response. */
async function attempt<C extends CallDef>(
  call: C,
  url: string,
  init: RequestInit,
  outerSignal: AbortSignal | undefined,
): Promise<WithMessage<CallData<C>>> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, call.waitMs ?? REQUEST_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  outerSignal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: controller.signal });
    } catch (e) {
      if (timedOut) throw new ApiError('timeout', 0, CLIENT_MESSAGES.timeout);
      if (outerSignal?.aborted) throw e;
      throw new ApiError('network_error', 0, e instanceof Error ? e.message : 'network error');
    }
    try {
      return await readEnvelope(call, res);
    } catch (e) {
      // A body that stalls past the limit is a timeout too.
      if (timedOut) throw new ApiError('timeout', 0, CLIENT_MESSAGES.timeout);
      throw e;
    }
  } finally {
    clearTimeout(timer);
    outerSignal?.removeEventListener('abort', onOuterAbort);
  }
}

/**
 * Makes one catalogue call and answers its validated data, or throws an ApiError.
 *
 * 401 always means the session is gone. 403 does too for candidates (a candidate
 * token has no partial permissions); for staff it means the role lacks a permission, so the console shows it instead of
 * logging the person out. Public calls (the logins) answer their own errors to the form.
 */
export async function request<C extends CallDef>(call: C, ...args: InputArgs<C>): Promise<CallData<C>> {
  return (await requestWithMessage(call, ...args)).data;
}

/** Like `request`, also answering the success envelope's `msg` (the subject load checks it is empty). */
export async function requestWithMessage<C extends CallDef>(
  call: C,
  ...args: InputArgs<C>
): Promise<WithMessage<CallData<C>>> {
  const input: { query?: unknown; body?: unknown; signal?: AbortSignal } = args[0] ?? {};
  const url = buildUrl(
    env.baseUrl,
    call.path,
    input.query as Record<string, unknown> | undefined,
    authFor(call),
    env.getReferer(),
  );
  const encoded = encodeBody(call.bodyFormat, input.body);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (encoded?.contentType) headers['Content-Type'] = encoded.contentType;
  const language = env.getLanguage();
  if (language) headers['Accept-Language'] = language;
  const init: RequestInit = {
    method: call.method,
    headers,
    credentials: 'same-origin',
    ...(encoded ? { body: encoded.body } : {}),
  };

  for (let tryNo = 0; ; tryNo++) {
    try {
      return await attempt(call, url, init, input.signal);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (tryNo < RETRY_POLICY.retries && isRetryable(call.method, e) && !input.signal?.aborted) {
        await env.sleep(RETRY_POLICY.delayMs);
        continue;
      }
      throw handleFailure(call, e);
    }
  }
}

function handleFailure(call: CallDef, e: ApiError): ApiError {
  if (e.status !== 0)
    env.log(`[api] ${call.method} ${call.path}: ${e.status} ${describeStatus(e.status)} (${e.code}: ${e.msg})`);
  else env.log(`[api] ${call.method} ${call.path}: ${e.msg}`);

  // The phone page has no login to go to: it shows its own errors (an expired or invalid link).
  if (call.auth === 'phone') return e;
  if (call.auth !== 'public') {
    const sessionGone = e.status === 401 || (e.status === 403 && call.auth === 'candidate');
    if (sessionGone) {
      const current = env.getCurrentPath();
      if (sessionKeeper && call.auth === 'candidate') sessionKeeper();
      else if (!isLoginPath(current)) env.navigate(loginPathFor(call.auth, current));
      return new SessionGoneError(e.code, e.status, CLIENT_MESSAGES.notLoggedIn);
    }
  }
  if (e.status === 404 && !SHOWN_BY_THE_PAGE.has(e.code)) env.navigate('/404');
  return e;
}

/**
 * 404 answers the page itself explains: a missing exam detail is raised as 'failed to get exam
 * detail' on the exam page, not turned into the 404 page; a read receipt
 * of a warning that is gone must not take the candidate away from their exam.
 */
const SHOWN_BY_THE_PAGE: ReadonlySet<string> = new Set<ErrorCode>(['exam_detail_missing', 'warning_not_found']);

function isLoginPath(path: string): boolean {
  const pathname = path.split('?')[0];
  return pathname === '/login' || pathname === '/admin/login';
}

/** A file upload's progress, 0 to 1. */
export type UploadProgress = (fraction: number) => void;

/**
 * Sends a multipart call (resume, Q&A files) with the same rules as `request` (auth, referer,
 * time limit per idle stretch, 401/403 and schema checks), through XMLHttpRequest because fetch
 * cannot report upload progress. Never retried: the candidate sees the failure and can retry.
 */
export function upload<C extends CallDef>(
  call: C,
  fields: Readonly<Record<string, string | number | Blob>>,
  onProgress?: UploadProgress,
): Promise<CallData<C>> {
  const url = buildUrl(env.baseUrl, call.path, undefined, authFor(call), env.getReferer());
  const form = new FormData();
  // Text fields first: a streaming server reads them before the file.
  for (const [k, v] of Object.entries(fields)) if (!(v instanceof Blob)) form.append(k, String(v));
  for (const [k, v] of Object.entries(fields)) if (v instanceof Blob) form.append(k, v, v instanceof File ? v.name : k);
  return new Promise<CallData<C>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(call.method, url);
    xhr.setRequestHeader('Accept', 'application/json');
    const language = env.getLanguage();
    if (language) xhr.setRequestHeader('Accept-Language', language);
    let idle: ReturnType<typeof setTimeout> | undefined;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => xhr.abort(), REQUEST_TIMEOUT_MS);
    };
    let timedOut = false;
    xhr.upload.onprogress = (e) => {
      armIdle();
      if (e.lengthComputable && onProgress) onProgress(e.loaded / e.total);
    };
    xhr.onabort = () => {
      timedOut = true;
      reject(handleFailure(call, new ApiError('timeout', 0, CLIENT_MESSAGES.timeout)));
    };
    xhr.onerror = () => reject(handleFailure(call, new ApiError('network_error', 0, 'network error')));
    xhr.onload = () => {
      clearTimeout(idle);
      if (timedOut) return;
      const res = new Response(xhr.responseText, {
        status: xhr.status,
        headers: { 'Content-Type': 'application/json' },
      });
      readResponse(call, res).then(resolve, (e: unknown) => reject(e instanceof ApiError ? handleFailure(call, e) : e));
    };
    armIdle();
    xhr.send(form);
  });
}

/** A file a download call answered: its bytes and the name the server gave it. */
export interface DownloadedFile {
  blob: Blob;
  fileName: string;
}

/**
 * Makes a download call (`download: true`): the file and its name from `content-disposition`, or the same
 * ApiError `request` throws (the error answers are envelopes). The staff cookie goes along as with `request`.
 */
export async function fetchFile<C extends CallDef>(
  call: C,
  query: CallQuery<C> extends undefined ? undefined : CallQuery<C>,
): Promise<DownloadedFile> {
  const url = buildUrl(
    env.baseUrl,
    call.path,
    query as Record<string, unknown> | undefined,
    authFor(call),
    env.getReferer(),
  );
  let res: Response;
  try {
    res = await fetch(url, { method: call.method, credentials: 'same-origin' });
  } catch (e) {
    throw handleFailure(call, new ApiError('network_error', 0, e instanceof Error ? e.message : 'network error'));
  }
  if (!res.ok) {
    try {
      await readEnvelope(call, res);
    } catch (e) {
      throw e instanceof ApiError ? handleFailure(call, e) : e;
    }
    throw handleFailure(call, new ApiError('http_error', res.status, describeStatus(res.status)));
  }
  const disposition = res.headers.get('content-disposition') ?? '';
  const exact = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="([^"]+)"/i.exec(disposition)?.[1];
  const fileName = exact ? decodeURIComponent(exact) : (plain ?? 'download');
  return { blob: await res.blob(), fileName };
}

/** Hands a file to the browser to save. */
export function saveFile(file: DownloadedFile): void {
  const href = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = file.fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked on the next turn: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(href), 0);
}
