/**
 * The exam-day dashboard and alert rules in docs/ops/ against the processes: promtool accepts the rules and their
 * unit tests (each alert fires on series that call for it, and only then), and every metric a panel or a rule
 * queries is one a process exposes (an API process, the worker process on its own port, a process that does both,
 * a judge worker), so a renamed metric or a panel's typo fails here rather than on exam day.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWorker } from '@examhall/judge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { TEST_REDIS_URL, requirePart } from '../test/parts.js';
import { serveJudgeWorkerOps } from './judgeWorker.js';

const OPS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/ops');
const ALERTS = path.join(OPS_DIR, 'alerts.yml');
const ALERT_TESTS = path.join(OPS_DIR, 'alerts.test.yml');
const DASHBOARD = path.join(OPS_DIR, 'dashboard.json');

/** promtool's path; fails (never skips) when the machine lacks it. */
function promtool(): string {
  const found = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' });
  const bin = found.stdout.trim();
  if (found.status !== 0 || bin === '') {
    throw new Error(
      "promtool is missing: run `bash scripts/ensure-system.sh` (it installs Debian's prometheus package)",
    );
  }
  return bin;
}

/** Runs promtool with `args` in docs/ops; its output, or an error carrying it. */
function runPromtool(args: string[]): string {
  try {
    return execFileSync(promtool(), args, { cwd: OPS_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}${e.message}`);
  }
}

/** PromQL's words that are not metric names when they stand alone. */
const KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: identifiers not followed by `(` (functions and aggregations are),
 * outside label matchers `{...}`, label lists (`by (...)`, `on (...)`, ...), strings, ranges and durations.
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/gi, ' ');
  const names = new Set<string>();
  for (const m of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const word = m[0];
    const start = m.index;
    // Part of a number (1e9) or a duration (5m) rather than a word of its own.
    if (start > 0 && /[0-9.]/.test(bare[start - 1] ?? '')) continue;
    if (/^\s*\(/.test(bare.slice(start + word.length))) continue;
    if (KEYWORDS.has(word.toLowerCase())) continue;
    names.add(word);
  }
  return [...names];
}

/** Every series name a text exposition offers: each family, with a histogram's and a summary's own series. */
function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    const [, name = '', type] = m;
    names.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(name + s);
    if (type === 'summary') for (const s of ['_sum', '_count']) names.add(name + s);
  }
  return names;
}

/** The names of `queried` no process exposes. */
function unexposed(queried: Iterable<string>, exposed: Set<string>): string[] {
  return [...new Set(queried)].filter((name) => !exposed.has(name)).sort();
}

interface Panel {
  title?: string;
  type?: string;
  targets?: { expr?: string }[];
  panels?: Panel[];
  fieldConfig?: { defaults?: { unit?: string } };
  datasource?: { uid?: string };
}

/** Every panel of the dashboard, those in collapsed rows too. */
function panelsOf(list: Panel[]): Panel[] {
  return list.flatMap((p) => [p, ...panelsOf(p.panels ?? [])]);
}

const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as {
  panels: Panel[];
  templating: { list: { name: string; type: string }[] };
};
/**
 * The alerts of a rule file and their expressions: `- alert: Name`, then its `expr:`, on the line or as a block
 * scalar (`|`) of the lines indented deeper. (The file is ours; promtool checks it is valid.)
 */
function alertRules(text: string): { alert: string; expr: string }[] {
  const lines = text.split('\n');
  const out: { alert: string; expr: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const alert = /^\s*- alert:\s*(\S+)\s*$/.exec(lines[i] ?? '')?.[1];
    if (alert) out.push({ alert, expr: '' });
    const expr = /^(\s*)expr:\s*(.*)$/.exec(lines[i] ?? '');
    const rule = out.at(-1);
    if (!expr || !rule) continue;
    const [, indent = '', value = ''] = expr;
    if (!/^[|>]/.test(value)) {
      rule.expr = value;
      continue;
    }
    const block: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.search(/\S/) > indent.length)) {
      block.push(lines[++i]!.trim());
    }
    rule.expr = block.join(' ').trim();
  }
  return out;
}

const rules = alertRules(fs.readFileSync(ALERTS, 'utf8'));
const graphs = panelsOf(dashboard.panels).filter((p) => p.type !== 'row');
/** Each expression with where it comes from. */
const queries = [
  ...graphs.flatMap((p) => (p.targets ?? []).map((t) => ({ where: `panel "${p.title}"`, expr: t.expr ?? '' }))),
  ...rules.map((r) => ({ where: `alert ${r.alert}`, expr: r.expr })),
];

describe('the alert rules', () => {
  it('pass promtool check rules', () => {
    expect(runPromtool(['check', 'rules', ALERTS])).toContain('SUCCESS');
  });

  it('fire in promtool test rules when the series call for it, and stay quiet otherwise', () => {
    expect(runPromtool(['test', 'rules', ALERT_TESTS])).toContain('SUCCESS');
    // Every alert is tested, both ways.
    const tests = fs.readFileSync(ALERT_TESTS, 'utf8');
    for (const { alert } of rules) {
      expect(tests, alert).toMatch(new RegExp(`alertname: ${alert}\\n\\s+exp_alerts: \\[\\]`));
      expect(tests, alert).toMatch(new RegExp(`alertname: ${alert}\\n\\s+exp_alerts:\\n\\s+- exp_labels:`));
    }
  });

  it('cover the exam-day alerts: slow saves, errors, stalled queues, a full disk, a restarting process', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual(
      [
        'AnswerSavesSlow',
        'DatabaseErrors',
        'DiskFull',
        'JobQueueStalled',
        'JudgeQueueStalled',
        'ProcessRestarted',
        'ServerErrors',
        'StoreErrors',
      ].sort(),
    );
  });
});

describe('the dashboard', () => {
  it('reads a templated Prometheus data source and gives every panel a unit and a title', () => {
    expect(dashboard.templating.list).toContainEqual(
      expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource' }),
    );
    for (const p of graphs) {
      expect(p.datasource?.uid, p.title).toBe('${DS_PROMETHEUS}');
      expect(p.fieldConfig?.defaults?.unit, p.title).toBeTruthy();
      expect(p.title, p.title).toMatch(/\(.+\)$/);
      expect(p.targets?.length, p.title).toBeGreaterThan(0);
    }
  });

  it('has a panel for each exam-day figure', () => {
    const all = queries
      .filter((q) => q.where.startsWith('panel'))
      .map((q) => q.expr)
      .join('\n');
    for (const metric of [
      'examhall_candidates_in_exam',
      'examhall_answer_saves_total',
      'examhall_http_request_duration_seconds_bucket',
      'examhall_admission_queue_length',
      'examhall_event_streams_open',
      'examhall_judge_jobs_waiting',
      'examhall_judge_duration_seconds_bucket',
      'examhall_jobs',
      'examhall_store_errors_total',
      'examhall_db_errors_total',
      'examhall_disk_free_bytes',
      'examhall_process_start_time_seconds',
    ]) {
      expect(all, metric).toContain(metric);
    }
  });
});

describe('metric names in PromQL', () => {
  it('are told from functions, keywords, label names, strings and durations', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le) (rate(examhall_a_bucket{call="/x", method=~"P.*"}[5m]))) > 0.1 ' +
          'and on() (sum(rate(examhall_b_count[10m] offset 1h)) or vector(0)) == 0 unless ignoring(kind) examhall_c ' +
          '- examhall_d < 1e9',
      ).sort(),
    ).toEqual(['examhall_a_bucket', 'examhall_b_count', 'examhall_c', 'examhall_d']);
  });

  it('name a metric nobody exposes as missing', () => {
    const exposed = exposedNames('# TYPE examhall_x_seconds histogram\n# TYPE examhall_y_total counter\n');
    expect(
      unexposed(metricNames('sum(rate(examhall_x_seconds_bucket[5m])) + examhall_y_total + examhall_z_total'), exposed),
    ).toEqual(['examhall_z_total']);
  });
});

describe('every metric the dashboard and the alerts query', () => {
  const apps: TestApp[] = [];
  /** Each process kind's exposition. */
  const scraped = new Map<string, string>();

  beforeAll(async () => {
    for (const role of ['api', 'worker', 'all'] as const) {
      const t = await createTestApp('sqlite', { role });
      apps.push(t);
      // The worker process answers no calls: its metrics are on its own server (METRICS_PORT).
      const res = await (role === 'worker' ? t.opsApp! : t.app).inject('/metrics');
      expect(res.statusCode, res.body).toBe(200);
      scraped.set(role, res.body);
    }
    expect(apps[0]!.opsApp).toBeUndefined();
    if (await requirePart('redis')) {
      const worker = await runWorker(TEST_REDIS_URL, { queue: `dashboard-test-${process.pid}`, concurrency: 1 });
      const ops = await serveJudgeWorkerOps({
        worker: worker.worker,
        redisUrl: TEST_REDIS_URL,
        host: '127.0.0.1',
        port: 0,
        metricsToken: undefined,
      });
      try {
        const res = await fetch(`${ops.address}/metrics`);
        expect(res.status).toBe(200);
        scraped.set('judge-worker', await res.text());
        expect((await fetch(`${ops.address}/readyz`)).status).toBe(200);
      } finally {
        await ops.close();
        await worker.close();
      }
    }
  }, 60_000);

  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('is exposed by a process', () => {
    const exposed = new Set([...scraped.values()].flatMap((text) => [...exposedNames(text)]));
    const missing = queries.flatMap(({ where, expr }) =>
      unexposed(metricNames(expr), exposed).map((n) => `${where}: ${n}`),
    );
    expect(missing).toEqual([]);
    // The tokenizer found names at all (an expression it reads as empty would pass vacuously).
    for (const { where, expr } of queries) expect(metricNames(expr).length, where).toBeGreaterThan(0);
  });

  it('includes the start time of every kind of process, which the restart alert watches', () => {
    for (const [kind, text] of scraped) {
      expect(exposedNames(text).has('examhall_process_start_time_seconds'), kind).toBe(true);
    }
    expect([...scraped.keys()]).toEqual(expect.arrayContaining(['api', 'worker', 'all']));
  });
});
