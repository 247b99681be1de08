/**
 * The candidates of a campus exam as the exam page drives the server, from one light process: a start wave (the
 * page and its assets, SMS code, login, exam list, detail, the device checks with the first picture and the
 * signature, then start, the question order, each section's questions, the event stream and the clock), then
 * through the exam answer saves, time syncs, camera frames uploaded to the store and recorded, an occasional risk
 * event, and the finish. Requests go through one keep-alive pool; each candidate is a few small fields and its
 * timers, plus its open event stream.
 */
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { KINDS, requiredSteps, stepSkippable, stsExpired, type ExamDetail, type StsData } from '@examhall/contract';
import { AwsClient } from 'aws4fetch';
import jpeg from 'jpeg-js';
import { flatPhoto } from './facePhotos.js';
import { CallStats, RunStats } from './latency.js';

/** The shape of the wave and the rhythm of the exam. */
export interface MixOptions {
  /**
   * The API processes' origins, e.g. http://127.0.0.1:3000: each candidate's calls go to one of them in turn (as a
   * balancer with sticky sessions sends them), its event stream to any of them.
   */
  bases: readonly string[];
  /**
   * An S3-compatible store the pages put to with these keys (path-style, SigV4), where the server's upload
   * credentials come from a provider's STS the store does not have; absent, pages put with the credentials of
   * /sts/get-token to the endpoint it names.
   */
  store?: StoreAccount;
  examId: number;
  /** The invited phones, one per candidate. */
  phones: readonly string[];
  /** The login code texted to a phone (waits for it). */
  codeOf(phone: string): Promise<string>;
  /** Logins and device checks are spread over this many seconds before the opening. */
  loginSpreadS: number;
  /**
   * When the exam's window opens (server clock, epoch ms): candidates check in before it and press start after it,
   * following the server's answer as the page does (before the opening, wait for it; in the admission queue, wait
   * for the turn and press again). Absent, the opening is `loginSpreadS` after the mix starts.
   */
  opensAt?: number;
  /** Every candidate presses start within this many seconds after the opening. */
  startSpreadS: number;
  /** How long each candidate's exam runs after its start, seconds. */
  examS: number;
  /** Mean seconds between answer saves (exponential), between time syncs, between frames, between risk events. */
  answerEveryS: number;
  syncEveryS: number;
  frameEveryS: number;
  riskEveryS: number;
  /** Sockets of the keep-alive pool (the event streams have one each besides). */
  sockets: number;
  /** No-op requests a second measured through the same pool during the run. */
  noopPerS: number;
  /** False when the page's files come from a CDN (ASSET_BASE_URL): the page itself is still fetched. */
  assets: boolean;
  /**
   * Candidates (the first ones) whose first save is code to the programming Q&A question, so the exam has
   * submissions for code similarity; absent, none.
   */
  codeAnswers?: number;
  /** The code candidate `i` saves (with `codeAnswers`). */
  codeAnswerOf?: (i: number) => string;
}

/** An S3-compatible store's address and account. */
export interface StoreAccount {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** What the run measured. */
export interface MixResult {
  stats: RunStats;
  /** Seconds from the opening to each candidate's first question (NaN: never saw it). */
  firstQuestionS: Float64Array;
  /** Seconds from each candidate's press of start to its first question (NaN: never saw it). */
  startToQuestionS: Float64Array;
  /** Wall seconds the mix ran. */
  seconds: number;
  /** How long requests waited in the load process for a socket of its pool (the generator's own queue). */
  poolWait: CallStats;
  /** Bytes of the camera frames (a sample of the sizes used). */
  frameBytes: number[];
  /** Candidates' requests each API process answered (any status; the no-op aside), in the order of `bases`. */
  served: number[];
}

/** The call measured as the no-op: the server clock, which reads nothing (as bench:answers uses it). */
export const NOOP = 'no-op GET /monitor/time-table';
/** Presses of start the server answered with a place in its admission queue (counted apart: not errors). */
export const QUEUED = 'POST /monitor/start-exam (enter: queued)';

/** Presses at the opening are spread over this much, as the page spreads them (web/src/exam/startWave.ts). */
const OPENING_SPREAD_MS = 3000;
/** A queue's turn is asked for a little after it comes, spread over this much, as the page does. */
const TURN_SPREAD_MS = 250;
/** A press of start is given up after this many answers of waiting (opening or queue). */
const MAX_PRESSES = 200;

/** One simulated candidate: a handful of fields. */
interface Candidate {
  i: number;
  /** The API process its calls go to (an index of `bases`). */
  api: number;
  ip: string;
  /** Its attempt, once entered (the prefix of its uploads where the bench signs them). */
  attemptId: number;
  token: string;
  anid: number;
  sts: StsData | null;
  seq: number;
  /** Set once the device checks have passed; start waits for it. */
  ready: Promise<boolean> | null;
  events: http.ClientRequest | null;
  finished: boolean;
}

/** A few camera frames of 60-120 KB: real baseline JPEG of a 640x480 picture with noise (the store sniffs types). */
export function cameraFrames(): Buffer[] {
  const w = 640;
  const h = 480;
  return [14, 20, 27].map((amp, k) => {
    const data = Buffer.alloc(w * h * 4);
    let s = 7 + k;
    for (let p = 0; p < w * h; p++) {
      s = (s * 1103515245 + 12345) >>> 0;
      const n = (s >>> 24) % amp;
      const x = p % w;
      const y = (p / w) | 0;
      data[p * 4] = ((x * 255) / w + n) & 255;
      data[p * 4 + 1] = ((y * 255) / h + n) & 255;
      data[p * 4 + 2] = 128 + n;
      data[p * 4 + 3] = 255;
    }
    return Buffer.from(jpeg.encode({ data, width: w, height: h }, 75).data);
  });
}

/**
 * Where a page puts the object `name` with upload credentials from /sts/get-token: its key under the grant's prefix,
 * the store's address as the server announces it on `origin` (where the bench reaches the server), and the signer.
 */
export function stsUploadTarget(sts: StsData, name: string, origin: URL) {
  const key = `${sts.prefix.replace(/\/*$/, '/')}${name}`;
  const url = new URL(`${new URL(sts.endpoint).pathname.replace(/\/+$/, '')}/${sts.bucket}/${key}`, origin);
  const signer = new AwsClient({
    accessKeyId: sts.AccessKeyId,
    secretAccessKey: sts.AccessKeySecret,
    sessionToken: sts.SecurityToken,
    service: 's3',
    region: sts.region,
  });
  return { key, url, signer };
}

/** Exponentially distributed delay with the given mean, ms (a Poisson rhythm, as many independent people make). */
const expMs = (meanS: number) => -Math.log(1 - Math.random()) * meanS * 1000;
/**
 * The local address of a candidate's event stream: on loopback, one of 16 (127.0.0.1 to 127.0.0.16). Connections
 * from one address to one port have the kernel's ephemeral ports at most (about 28,000), fewer than a national
 * exam's streams; Linux answers every 127.0.0.0/8 address on the loopback interface.
 */
export function streamSource(api: URL, i: number): { localAddress?: string } {
  return api.hostname === '127.0.0.1' ? { localAddress: `127.0.0.${1 + (i % 16)}` } : {};
}

/** A delay of about `s` seconds, give or take 10 %, ms. */
const jitterMs = (s: number) => s * 1000 * (0.9 + Math.random() * 0.2);

/** Runs the mix; answers once every candidate has finished. */
export async function runExamMix(opts: MixOptions): Promise<MixResult> {
  const stats = new RunStats();
  const poolWait = new CallStats();
  const apis = opts.bases.map((b) => new URL(b));
  const served = opts.bases.map(() => 0);
  let nextNoop = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.sockets, maxFreeSockets: opts.sockets });
  const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const frames = cameraFrames();
  const frameSha = frames.map((f) => createHash('sha256').update(f).digest('hex'));
  const signature = flatPhoto(320, 160);
  const signatureSha = createHash('sha256').update(signature).digest('hex');
  const firstQuestionS = new Float64Array(opts.phones.length).fill(NaN);
  const startToQuestionS = new Float64Array(opts.phones.length).fill(NaN);
  /** The exam's single-answer choice questions with their option ids, from the first candidate's sections. */
  let choices: { id: number; options: string[] }[] | null = null;
  /** The exam's programming Q&A question (type 8), from the first candidate's sections. */
  let codeQuestion: number | null = null;
  let assets: string[] | null = null;

  /** One request through the pool; answers status, body and encoding, or throws on a broken connection. */
  function request(
    target: URL,
    method: string,
    path: string,
    headers: http.OutgoingHttpHeaders,
    body?: string | Buffer,
  ): Promise<{ status: number; body: Buffer; encoding: string | undefined }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: target.hostname, port: target.port, method, path, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            encoding: res.headers['content-encoding'],
          }),
        );
        res.on('error', reject);
      });
      const asked = performance.now();
      req.once('socket', () => poolWait.add(performance.now() - asked));
      req.on('error', reject);
      req.end(body);
    });
  }

  /**
   * A measured call under `name`; answers the envelope's data, or null after counting an error. The body goes as
   * JSON, or as a form where the call takes one (risk records).
   */
  async function measured<T>(
    name: string,
    method: string,
    path: string,
    c: Candidate | null,
    body?: Record<string, unknown>,
    form = false,
  ): Promise<T | null> {
    const res = await called<T>(name, method, path, c, body, form);
    if (res === null || res.ok) return res?.data ?? null;
    stats.of(name).fail(`${res.status} ${res.msg}`);
    return null;
  }

  /**
   * A call under `name`: its data when it succeeded (timed under `name`), its status and error envelope when the
   * server refused it (for the caller to count), or null after counting a broken connection or an unreadable answer.
   */
  async function called<T>(
    name: string,
    method: string,
    path: string,
    c: Candidate | null,
    body?: Record<string, unknown>,
    form = false,
  ): Promise<
    | { ok: true; data: T; ms: number }
    | { ok: false; status: number; msg: string; code: string; data: Record<string, unknown> | null; ms: number }
    | null
  > {
    const headers: http.OutgoingHttpHeaders = c ? { 'x-forwarded-for': c.ip } : {};
    let text: string | undefined;
    if (body !== undefined && form) {
      text = new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (body !== undefined) {
      text = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const api = c ? c.api : nextNoop++ % apis.length;
    const started = performance.now();
    try {
      const res = await request(apis[api]!, method, `/api${path}`, headers, text);
      if (c) served[api]! += 1;
      const ms = performance.now() - started;
      const env = JSON.parse(res.body.toString()) as { status?: string; msg?: string; code?: string; data?: unknown };
      if (res.status !== 200 || env.status !== 'success') {
        const data = env.data && typeof env.data === 'object' ? (env.data as Record<string, unknown>) : null;
        return { ok: false, status: res.status, msg: env.msg ?? '', code: env.code ?? '', data, ms };
      }
      stats.done(name, ms);
      return { ok: true, data: env.data as T, ms };
    } catch (err) {
      stats.of(name).fail(String(err));
      return null;
    }
  }

  /** A plain GET of a page file as the browser loads it (compressed); answers the response, or null on an error. */
  async function file(name: string, path: string, c: Candidate) {
    const started = performance.now();
    try {
      const res = await request(apis[c.api]!, 'GET', path, { 'accept-encoding': 'br, gzip', 'x-forwarded-for': c.ip });
      served[c.api]! += 1;
      if (res.status !== 200) {
        stats.of(name).fail(`${res.status} ${path}`);
        return null;
      }
      stats.done(name, performance.now() - started);
      return res;
    } catch (err) {
      stats.of(name).fail(String(err));
      return null;
    }
  }

  /** Where and how a candidate's page puts an object: the store's URL and the signer. */
  async function uploadTarget(c: Candidate, name: string) {
    if (opts.store) {
      const st = opts.store;
      const key = `exams/${opts.examId}/attempts/${c.attemptId}/${name}`;
      const url = new URL(`${new URL(st.endpoint).pathname.replace(/\/+$/, '')}/${st.bucket}/${key}`, st.endpoint);
      const signer = new AwsClient({
        accessKeyId: st.accessKeyId,
        secretAccessKey: st.secretAccessKey,
        service: 's3',
        region: st.region,
      });
      return { key, url, signer };
    }
    // Fetched again when spent, by the page's rule: credentials taken at the device check, up to the login
    // spread before the opening, run out during the exam.
    if (!c.sts || stsExpired(c.sts, Date.now())) {
      c.sts = await measured<StsData>('GET /sts/get-token', 'GET', stsPath(c), c);
      if (!c.sts) return null;
    }
    return stsUploadTarget(c.sts, name, apis[c.api]!);
  }

  /** Puts an object as the page does (SigV4, straight to the store); answers its key, or null after an error. */
  async function putObject(c: Candidate, name: string, bytes: Buffer, sha256: string, type: string) {
    const target = await uploadTarget(c, name);
    if (!target) return null;
    const { key, url, signer } = target;
    const signed = await signer.sign(url.toString(), {
      method: 'PUT',
      headers: { 'content-type': type, 'x-amz-content-sha256': sha256 },
    });
    const headers: http.OutgoingHttpHeaders = { 'content-length': bytes.length, 'x-forwarded-for': c.ip };
    signed.headers.forEach((v, k) => (headers[k] = v));
    const started = performance.now();
    try {
      const res = await request(url, 'PUT', url.pathname, headers, bytes);
      if (res.status !== 200) {
        stats.of('PUT /storage').fail(`${res.status} ${res.body.toString().slice(0, 200)}`);
        if (res.status === 403 || res.status === 400) c.sts = null;
        return null;
      }
      stats.done('PUT /storage', performance.now() - started);
      return key;
    } catch (err) {
      stats.of('PUT /storage').fail(String(err));
      return null;
    }
  }

  const auth = (c: Candidate) => `auth=${encodeURIComponent(c.token)}`;
  const stsPath = (c: Candidate) => `/sts/get-token?exam_id=${opts.examId}&${auth(c)}`;

  /** The page with its assets, then the SMS code, login, exam list, detail and device checks. */
  async function arrive(c: Candidate, phone: string): Promise<boolean> {
    const page = await file('GET page', '/', c);
    if (!page) return false;
    // The files the page loads at once (scripts, styles, preloads), read from the first page fetched.
    const html = () =>
      page.encoding === 'br'
        ? brotliDecompressSync(page.body)
        : page.encoding === 'gzip'
          ? gunzipSync(page.body)
          : page.body;
    assets ??= [
      ...html()
        .toString()
        .matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g),
    ].map((m) => m[1]!);
    if (opts.assets) for (const a of assets) await file('GET asset', a, c);
    await measured('GET /common/site-config', 'GET', '/common/site-config', c);
    if (!(await measured('GET /user/send-msg', 'GET', `/user/send-msg?phone=${phone}`, c))) return false;
    const login = await measured<{ auth: string }>('POST /user/login', 'POST', '/user/login', c, {
      phone,
      code: await opts.codeOf(phone),
    });
    if (!login) return false;
    c.token = login.auth;
    const list = await measured<{ list: { id: number; anid: number }[] }>(
      'GET /exam/index',
      'GET',
      `/exam/index?${auth(c)}`,
      c,
    );
    const mine = list?.list.find((e) => e.id === opts.examId) ?? list?.list[0];
    if (!mine) return false;
    c.anid = mine.anid;
    const shown = await measured<ExamDetail>(
      'GET /exam/show',
      'GET',
      `/exam/show?id=${opts.examId}&anid=${c.anid}&${auth(c)}`,
      c,
    );
    if (!shown) return false;
    const enter = { exam_id: opts.examId, anid: c.anid };
    const entered = await measured<{ attempt: { id: number } }>(
      'POST /monitor/start-exam',
      'POST',
      `/monitor/start-exam?${auth(c)}`,
      c,
      enter,
    );
    if (!entered) return false;
    c.attemptId = entered.attempt.id;
    await measured('GET /monitor/state', 'GET', `/monitor/state?exam_id=${opts.examId}&${auth(c)}`, c);
    const now = Date.now();
    const k = c.i % frames.length;
    const firstKey = await putObject(c, `first-picture-${now}.jpg`, frames[k]!, frameSha[k]!, 'image/jpeg');
    if (!firstKey) return false;
    const first = { exam_id: opts.examId, key: firstKey, sha256: frameSha[k]!, trigger_time: now };
    if (!(await measured('POST /monitor/first-picture', 'POST', `/monitor/first-picture?${auth(c)}`, c, first)))
      return false;
    for (const step of requiredSteps(shown)) {
      if (step.key === 'signature') {
        const key = await putObject(c, `signature-${Date.now()}.png`, signature, signatureSha, 'image/png');
        if (!key) return false;
        const sig = {
          exam_id: opts.examId,
          kind: 'signature',
          key,
          sha256: signatureSha,
          trigger_time: Date.now(),
          client_id: randomUUID(),
        };
        if (!(await measured('POST /monitor/capture', 'POST', `/monitor/capture?${auth(c)}`, c, sig))) return false;
      } else if (!stepSkippable(shown, step.key)) {
        stats.of('POST /monitor/check').fail(`the bench cannot pass the ${step.key} check`);
        return false;
      }
      // The camera step passes on the face check of the first picture (bench:face measures that engine); the
      // bench skips it as the exam allows, with the steps a bench has no device for.
      const check = {
        exam_id: opts.examId,
        step: step.id,
        result: step.key === 'signature' ? 'passed' : 'skipped',
        device: 'bench',
        client_id: randomUUID(),
      };
      if (!(await measured('POST /monitor/check', 'POST', `/monitor/check?${auth(c)}`, c, check))) return false;
    }
    return true;
  }

  /**
   * Presses start as the page does: before the opening the server names it and the page presses again then
   * (spread over a few seconds); in the admission queue it names the wait and the page presses again at the turn.
   * Answers whether the candidate entered.
   */
  async function enter(c: Candidate): Promise<boolean> {
    const name = 'POST /monitor/start-exam (enter)';
    const body = { exam_id: opts.examId, anid: c.anid, phase: 2 };
    for (let press = 0; press < MAX_PRESSES; press++) {
      const res = await called(name, 'POST', `/monitor/start-exam?${auth(c)}`, c, body);
      if (res === null) return false;
      if (res.ok) return true;
      let waitMs: number;
      if (res.code === 'admission_queue' && typeof res.data?.retry_after_ms === 'number') {
        stats.done(QUEUED, res.ms);
        waitMs = res.data.retry_after_ms + Math.random() * TURN_SPREAD_MS;
      } else if (res.code === 'exam_not_open' && typeof res.data?.opens_at === 'number') {
        stats.done(`${name} (before the opening)`, res.ms);
        waitMs = res.data.opens_at - Date.now() + Math.random() * OPENING_SPREAD_MS;
      } else {
        stats.of(name).fail(`${res.status} ${res.msg}`);
        return false;
      }
      await new Promise((r) => setTimeout(r, Math.max(0, waitMs)));
    }
    stats.of(name).fail(`still waiting after ${MAX_PRESSES} presses`);
    return false;
  }

  /** Start: the attempt, the clock, the question order, each section's questions, the event stream. */
  async function start(c: Candidate, opening: number): Promise<boolean> {
    if (!(await c.ready)) return false;
    const pressed = performance.now();
    if (!(await enter(c))) return false;
    await measured('GET /monitor/time-table', 'GET', '/monitor/time-table', c);
    const order = await measured<{ subject_order: { id: number; type: number; section: string }[] }>(
      'GET /subject/order-list',
      'GET',
      `/subject/order-list?exam_id=${opts.examId}&${auth(c)}`,
      c,
    );
    if (!order) return false;
    const sections = [...new Set(order.subject_order.map((q) => q.section))].filter(
      (s) => s === 'linetest' || s === 'major',
    );
    const found: { id: number; options: string[] }[] = [];
    let code: number | null = null;
    for (const [n, section] of sections.entries()) {
      const shown = await measured<{ list: { subject: { id: number; type: number; options?: { id: string }[] } }[] }>(
        'GET /subject/show-section',
        'GET',
        `/subject/show-section?exam_id=${opts.examId}&section=${section}&${auth(c)}`,
        c,
      );
      if (!shown) return false;
      if (n === 0) {
        firstQuestionS[c.i] = (performance.now() - opening) / 1000;
        startToQuestionS[c.i] = (performance.now() - pressed) / 1000;
      }
      for (const { subject } of shown.list) {
        if (KINDS.answerOfType(subject.type) === 'choice' && subject.options?.length)
          found.push({ id: subject.id, options: subject.options.map((o) => o.id) });
        if (KINDS.answerOfType(subject.type) === 'code' && !KINDS.judged(subject.type)) code ??= subject.id;
      }
    }
    choices ??= found;
    codeQuestion ??= code;
    openEvents(c);
    return true;
  }

  /** Holds the candidate's event stream open until the finish; a stream dropped before counts as an error. */
  function openEvents(c: Candidate): void {
    const started = performance.now();
    // A stream is not sticky: it may land on any process (the notifier carries events across them).
    const api = apis[Math.floor(Math.random() * apis.length)]!;
    const req = http.request(
      {
        host: api.hostname,
        port: api.port,
        method: 'GET',
        path: `/api/monitor/events?exam_id=${opts.examId}&${auth(c)}`,
        agent: streamAgent,
        ...streamSource(api, c.i),
        headers: { accept: 'text/event-stream', 'x-forwarded-for': c.ip },
      },
      (res) => {
        if (res.statusCode !== 200) {
          stats.of('GET /monitor/events').fail(`${res.statusCode}`);
          res.resume();
          return;
        }
        stats.done('GET /monitor/events', performance.now() - started);
        res.on('data', () => undefined);
        res.on('close', () => {
          if (!c.finished) stats.of('GET /monitor/events').fail('stream closed during the exam');
        });
      },
    );
    req.on('error', (err) => {
      if (!c.finished) stats.of('GET /monitor/events').fail(String(err));
    });
    req.end();
    c.events = req;
  }

  async function saveAnswer(c: Candidate): Promise<void> {
    if (c.i < (opts.codeAnswers ?? 0) && c.seq === 0 && codeQuestion !== null && opts.codeAnswerOf) {
      c.seq += 1;
      await measured('POST /answer/answer', 'POST', `/answer/answer?${auth(c)}`, c, {
        exam_id: opts.examId,
        subject_id: codeQuestion,
        answer: { kind: 'code', language: 'python', code: opts.codeAnswerOf(c.i) },
        client_id: randomUUID(),
        seq: c.seq,
        changed_at: Date.now(),
      });
      return;
    }
    if (!choices?.length) return;
    c.seq += 1;
    const q = choices[Math.floor(Math.random() * choices.length)]!;
    await measured('POST /answer/answer', 'POST', `/answer/answer?${auth(c)}`, c, {
      exam_id: opts.examId,
      subject_id: q.id,
      answer: { kind: 'choice', option: q.options[c.seq % q.options.length] },
      client_id: randomUUID(),
      seq: c.seq,
      changed_at: Date.now(),
    });
  }

  async function frame(c: Candidate): Promise<void> {
    const now = Date.now();
    const k = (c.i + c.seq) % frames.length;
    const clientId = randomUUID();
    const key = await putObject(c, `frame/${now}-${clientId.slice(0, 8)}.jpg`, frames[k]!, frameSha[k]!, 'image/jpeg');
    if (!key) return;
    await measured('POST /monitor/capture', 'POST', `/monitor/capture?${auth(c)}`, c, {
      exam_id: opts.examId,
      kind: 'frame',
      key,
      sha256: frameSha[k],
      trigger_time: now,
      client_id: clientId,
    });
  }

  async function risk(c: Candidate): Promise<void> {
    // A network wobble: recorded and shown to the proctor, it takes no screen switch from the candidate.
    await measured(
      'POST /monitor/record-risk',
      'POST',
      `/monitor/record-risk?${auth(c)}`,
      c,
      {
        exam_id: opts.examId,
        risk: 20,
        trigger_time: Date.now(),
        detail: 'bench',
        client_id: randomUUID(),
      },
      true,
    );
  }

  /** Runs `act` now and then until `until` (ms on the performance clock), with the given delays. */
  /** Runs `act` until `until`, each time after a wait drawn by `waitMs` (the first one too). */
  function every(until: number, waitMs: () => number, act: () => Promise<void>): Promise<void> {
    return new Promise((resolve) => {
      const tick = (delay: number) => {
        if (performance.now() + delay >= until) return void setTimeout(resolve, Math.max(0, until - performance.now()));
        setTimeout(() => void act().then(() => tick(waitMs())), delay);
      };
      tick(waitMs());
    });
  }

  async function examOf(c: Candidate, opening: number): Promise<void> {
    if (!(await start(c, opening))) return;
    const until = performance.now() + opts.examS * 1000;
    await Promise.all([
      every(
        until,
        () => expMs(opts.answerEveryS),
        () => saveAnswer(c),
      ),
      // The page aligns its clock and takes a frame as the exam starts, then on its intervals.
      every(
        until,
        () => jitterMs(opts.syncEveryS),
        async () => {
          await measured('GET /monitor/time-table', 'GET', '/monitor/time-table', c);
        },
      ),
      frame(c).then(() =>
        every(
          until,
          () => jitterMs(opts.frameEveryS),
          () => frame(c),
        ),
      ),
      every(
        until,
        () => expMs(opts.riskEveryS),
        () => risk(c),
      ),
    ]);
    await measured('POST /monitor/finish-exam', 'POST', `/monitor/finish-exam?${auth(c)}`, c, {
      exam_id: opts.examId,
      client_id: randomUUID(),
    });
    c.finished = true;
    c.events?.destroy();
    c.events = null;
  }

  const t0 = performance.now();
  const opening =
    opts.opensAt === undefined ? t0 + opts.loginSpreadS * 1000 : t0 + Math.max(0, opts.opensAt - Date.now());
  const candidates = opts.phones.map((_, i): Candidate => ({
    i,
    api: i % apis.length,
    attemptId: 0,
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    token: '',
    anid: 0,
    sts: null,
    seq: 0,
    ready: null,
    events: null,
    finished: false,
  }));
  // The no-op, measured through the same pool at a steady rate for as long as candidates are at work.
  let running = true;
  const noopLoop = (async () => {
    const gap = 1000 / Math.max(opts.noopPerS, 0.001);
    while (running) {
      const due = performance.now() + gap;
      await measured(NOOP, 'GET', '/monitor/time-table', null);
      await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    }
  })();
  await Promise.all(
    candidates.map((c, i) => {
      c.ready = new Promise<boolean>((resolve) =>
        setTimeout(
          () => void arrive(c, opts.phones[i]!).then(resolve, () => resolve(false)),
          Math.random() * opts.loginSpreadS * 1000,
        ),
      );
      return new Promise<void>((resolve) =>
        setTimeout(
          () => void examOf(c, opening).then(resolve, () => resolve()),
          Math.max(0, opening + Math.random() * opts.startSpreadS * 1000 - performance.now()),
        ),
      );
    }),
  );
  running = false;
  await noopLoop;
  for (const c of candidates) c.events?.destroy();
  agent.destroy();
  streamAgent.destroy();
  return {
    stats,
    firstQuestionS,
    startToQuestionS,
    poolWait,
    seconds: (performance.now() - t0) / 1000,
    frameBytes: frames.map((f) => f.length),
    served,
  };
}
