/**
 * /metrics in the Prometheus text format, read by a third-party parser after real calls on both dialects:
 * requests by declared call and status with latency histograms, answer saves, job durations and depths, open
 * event streams, the database pool, candidates in the exam, the disk and the parts' failures; loopback only
 * without METRICS_TOKEN, the bearer token with it.
 */
import { randomUUID } from 'node:crypto';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import { body, createTestApp, type TestApp } from '../test/app.js';
import { enterExam } from '../test/checks.js';
import { testedDialects } from '../test/db.js';
import { giftImport } from '../test/jobs.js';
import { until } from '../test/processes.js';
import { openSse } from '../test/sse.js';
import { Metrics } from './metrics.js';

const PHONE = '13800138000';
const GIFT = `::Q1:: Which status means not found? {=404 ~200 ~500}\n`;

/** Scrapes /metrics (from loopback, as app.inject does) and parses it. */
async function scrape(t: TestApp): Promise<Map<string, PrometheusFamily>> {
  const res = await t.app.inject('/metrics');
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return new Map(parsePrometheusTextFormat(res.body).map((f) => [f.name, f]));
}

/** The value of the sample of `family` whose labels include `labels` (0 when there is none). */
function value(families: Map<string, PrometheusFamily>, family: string, labels: Record<string, string> = {}): number {
  const f = families.get(family);
  const sample = f?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(sample?.value ?? sample?.count ?? 0);
}

describe.each(await testedDialects())('metrics on %s', (dialect) => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('counts requests by declared call, saves, jobs, streams and the pool, in a format Prometheus parses', async () => {
    t = await createTestApp(dialect);
    const before = await scrape(t);
    expect(value(before, 'examhall_answer_saves_total')).toBe(0);
    expect(value(before, 'examhall_candidates_in_exam')).toBe(0);

    // Candidate calls: an exam entered and an answer saved.
    const { examId, anid } = await t.seed(PHONE);
    const token = await t.loginCandidate(PHONE);
    expect((await enterExam(t, token, examId, anid)).statusCode).toBe(200);
    const order = body<{ subject_order: { id: number; type: number }[] }>(
      await t.app.inject(`/api/subject/order-list?exam_id=${examId}&auth=${token}`),
    ).data.subject_order;
    const saved = await t.app.inject({
      method: 'POST',
      url: `/api/answer/answer?auth=${token}`,
      payload: {
        exam_id: examId,
        subject_id: order[0]!.id,
        answer: { kind: 'choice', option: 'A' },
        client_id: randomUUID(),
        seq: 1,
        changed_at: t.now(),
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    // Two different questions of the exam answer under one call label, not two URLs.
    await t.app.inject(`/api/subject/show-new?exam_id=${examId}&subject_id=${order[0]!.id}&auth=${token}`);
    await t.app.inject(`/api/subject/show-new?exam_id=${examId}&subject_id=${order[1]!.id}&auth=${token}`);
    await t.app.inject('/api/no/such/path');

    // A job: a question import.
    const admin = await t.loginStaff('admin');
    await giftImport(t, admin, GIFT);

    // An event stream held open.
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openSse(`${base}/api/monitor/events?exam_id=${examId}&auth=${token}`);
    expect(stream.status).toBe(200);

    const after = await scrape(t);
    const requests = after.get('examhall_http_requests_total')!;
    expect(requests.type).toBe('COUNTER');
    expect(
      value(after, 'examhall_http_requests_total', { call: '/answer/answer', method: 'POST', status: '200' }),
    ).toBe(1);
    expect(value(after, 'examhall_http_requests_total', { call: '/subject/show-new', status: '200' })).toBe(2);
    expect(value(after, 'examhall_http_requests_total', { call: 'unmatched', status: '404' })).toBe(1);
    // Labels are declared paths: no raw URL (query string, ids) became a label.
    for (const m of requests.metrics) expect(m.labels?.call ?? '').not.toContain('?');

    // This parser folds a labelled histogram's series into one: the family, its type and its buckets are checked.
    const latency = after.get('examhall_http_request_duration_seconds')!;
    expect(latency.type).toBe('HISTOGRAM');
    expect(Object.keys(latency.metrics[0]?.buckets ?? {})).toContain('+Inf');
    expect(Object.keys(latency.metrics[0]?.buckets ?? {})).toContain('0.005');

    expect(value(after, 'examhall_answer_saves_total')).toBe(1);
    expect(after.get('examhall_job_duration_seconds')?.type).toBe('HISTOGRAM');
    const jobLine = /^examhall_job_duration_seconds_count\{kind="bank_import",outcome="done"\} (\d+)$/m;
    expect(Number(jobLine.exec((await t.app.inject('/metrics')).body)?.[1])).toBe(1);
    expect(after.get('examhall_jobs')?.type).toBe('GAUGE');
    expect(after.has('examhall_judge_duration_seconds')).toBe(true);
    expect(after.has('examhall_face_check_duration_seconds')).toBe(true);
    expect(value(after, 'examhall_judge_jobs_waiting')).toBe(0);
    expect(value(after, 'examhall_event_streams_open', { call: '/monitor/events' })).toBe(1);
    expect(value(after, 'examhall_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    if (dialect === 'postgres') expect(after.get('examhall_db_pool_connections')?.metrics).toHaveLength(3);
    expect(after.has('examhall_process_cpu_seconds_total')).toBe(true);
    // The candidate who entered is in the exam; the data directory's disk has room; nothing failed.
    expect(value(after, 'examhall_candidates_in_exam')).toBe(1);
    expect(value(after, 'examhall_disk_free_bytes')).toBeGreaterThan(0);
    expect(after.has('examhall_disk_reserve_bytes')).toBe(true);
    expect(value(after, 'examhall_admission_queue_length')).toBe(0);
    expect(value(after, 'examhall_store_errors_total', { operation: 'put' })).toBe(0);
    expect(value(after, 'examhall_db_errors_total', { kind: 'unavailable' })).toBe(0);

    // The stream closes: the gauge comes back down.
    stream.close();
    await until(async () => value(await scrape(t), 'examhall_event_streams_open', { call: '/monitor/events' }) === 0);
  });

  it('times periodic tasks this process runs', async () => {
    t = await createTestApp(dialect, { sweepIntervalMs: 20 });
    const line =
      /^examhall_periodic_task_duration_seconds_count\{task="attempts.sweep-overdue",outcome="done"\} (\d+)$/m;
    await until(async () => Number(line.exec((await t.app.inject('/metrics')).body)?.[1] ?? 0) >= 2, 10_000);
    expect(parsePrometheusTextFormat((await t.app.inject('/metrics')).body).map((f) => f.name)).toContain(
      'examhall_periodic_task_duration_seconds',
    );
  });

  it('shows queued jobs by kind while they wait', async () => {
    t = await createTestApp(dialect);
    await t.db.handle.db
      .insertInto('job')
      .values({
        kind: 'bank_import',
        payload: '{}',
        owner_staff_id: null,
        team_id: null,
        state: 'running',
        locked_by: 'another-process',
        lease_until: Date.now() + 3_600_000,
        created_at: t.now(),
      })
      .execute();
    expect(value(await scrape(t), 'examhall_jobs', { kind: 'bank_import', state: 'running' })).toBe(1);
  });

  it('answers loopback callers only without METRICS_TOKEN, and the bearer of the token with it', async () => {
    t = await createTestApp(dialect);
    const remote = await t.app.inject({ url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(remote.statusCode).toBe(403);
    expect(body(remote).code).toBe('forbidden');
    const forwarded = await t.app.inject({ url: '/metrics', headers: { 'x-forwarded-for': '10.1.2.3' } });
    expect(forwarded.statusCode).toBe(403);
    await t.close();

    const secret = 'a-metrics-token-of-32-characters';
    t = await createTestApp(dialect, { env: { METRICS_TOKEN: secret } });
    expect((await t.app.inject('/metrics')).statusCode).toBe(401);
    const wrong = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer not-the-token-at-all!!' } });
    expect(wrong.statusCode).toBe(401);
    const right = await t.app.inject({
      url: '/metrics',
      remoteAddress: '10.1.2.3',
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(right.statusCode).toBe(200);
    expect(parsePrometheusTextFormat(right.body).length).toBeGreaterThan(5);
  });
});

describe('a process among those that share a port', () => {
  it('names itself on every series, so a scrape of one is never read as another', async () => {
    const text = (await new Metrics({ process: 'api-2' }).scrape()).text;
    expect(text).toMatch(/^examhall_process_start_time_seconds\{process="api-2"\} \d+/m);
    expect(text).toMatch(/^examhall_answer_saves_total\{process="api-2"\} 0$/m);
    expect((await new Metrics().scrape()).text).toMatch(/^examhall_process_start_time_seconds \d+/m);
  });
});
