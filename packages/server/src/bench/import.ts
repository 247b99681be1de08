/**
 * npm run bench:import — one workbook of 10,000 questions of several kinds: how long the importers package takes
 * to read it in-process, how long the server's preview and import calls take over HTTP, and how much memory the
 * server process holds at its peak during them next to what it holds idle, in the same run.
 */
import { createHash } from 'node:crypto';
import type {
  BankFolderNode,
  BankFolderTree,
  ImportCommitData,
  ImportPreviewData,
  QuestionBody,
  StaffLoginData,
} from '@examhall/contract';
import { exportQuestions, importFile, TRUE_FALSE_OPTIONS, type Draft } from '@examhall/importers';
import { call, freshDb, jobResultOverHttp, procMb, uploadOverHttp, rssSampler, startServer } from './harness.js';

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 10_000);
const PARSE_RUNS = Number(process.env.BENCH_PARSE_RUNS ?? 5);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite')
  .split(',')
  .filter((d): d is 'sqlite' | 'postgres' => d === 'sqlite' || d === 'postgres');

const ADMIN = { phone: '13900000000', password: 'bench-admin-password' };
const FILE_NAME = 'bench.xlsx';

const opts = (...texts: string[]) => texts.map((content, i) => ({ id: String.fromCharCode(65 + i), content }));

/** The n-th question's body: the kinds the workbook carries in turn, each stem numbered so no two repeat. */
function bodyOf(n: number): QuestionBody {
  const no = `#${n + 1}`;
  switch (n % 7) {
    case 0:
      return {
        kind: 'single',
        content: { stem: `<p>${no} 2, 4, 8, ?</p>`, options: opts('12', '16', '24', '32') },
        key: { option: 'B' },
      };
    case 1:
      return {
        kind: 'multiple',
        content: { stem: `<p>${no} 以下哪些是质数？</p>`, options: opts('2', '9', '11', '15') },
        key: { options: ['A', 'C'] },
      };
    case 2:
      return {
        kind: 'indefinite',
        content: { stem: `<p>${no} Which cities lie on the Yangtze?</p>`, options: opts('Wuhan', 'Lhasa', 'Nanjing') },
        key: { options: ['A', 'C'] },
      };
    case 3:
      return {
        kind: 'true_false',
        content: {
          stem: `<p>${no} Every square is a rectangle.</p>`,
          options: TRUE_FALSE_OPTIONS.map((content, i) => ({ id: 'AB'[i]!, content })),
        },
        key: { option: 'A' },
      };
    case 4:
      return {
        kind: 'fill_blank',
        content: { stem: `<p>${no} Status ___ means not found; ___ means OK.</p>`, blanks: 2 },
        key: { blanks: [['404'], ['200']] },
      };
    case 5:
      return {
        kind: 'qa',
        content: { stem: `<p>${no} Describe the four ACID properties of a transaction.</p>` },
        key: { rubric: '<p>Atomicity, consistency, isolation, durability: one point each.</p>' },
      };
    default:
      return {
        kind: 'gradient',
        content: {
          stem: `<p>${no} A teammate misses a deadline. Your first step?</p>`,
          options: opts('Ask', 'Wait', 'Report'),
        },
        key: { scores: { A: 100, B: 50, C: 0 } },
      };
  }
}

/** Drafts as an author's workbook holds them: every column the sheet has filled in, in a few sub-folders. */
function drafts(count: number): Draft[] {
  return Array.from({ length: count }, (_, n) => ({
    question: bodyOf(n),
    title: `Question ${n + 1}`,
    folder: [`Part ${(n % 5) + 1}`],
    tags: ['bench', `set-${n % 10}`],
    difficulty: (n % 5) + 1,
    knowledge_points: [`topic ${n % 20}`],
    points: 2 + (n % 3),
    explanation: `<p>Explanation of question ${n + 1}.</p>`,
    where: {},
  }));
}

/** Reads the workbook in this process a few times; min and median in ms. */
async function parseTimes(bytes: Uint8Array): Promise<{ min: number; median: number }> {
  const times: number[] = [];
  for (let run = 0; run < PARSE_RUNS; run++) {
    const started = performance.now();
    const result = await importFile({ name: FILE_NAME, bytes });
    times.push(performance.now() - started);
    const errors = result.problems.filter((p) => p.severity === 'error');
    if (result.questions.length !== QUESTIONS || errors.length > 0) {
      throw new Error(
        `the importers package read ${result.questions.length} of ${QUESTIONS} questions, ${errors.length} error(s): ${errors[0]?.message ?? ''}`,
      );
    }
  }
  times.sort((a, b) => a - b);
  return { min: times[0]!, median: times[Math.floor(times.length / 2)]! };
}

/** Preview and import over HTTP against a fresh server, with its memory idle and at its peak. */
async function overHttp(dialect: 'sqlite' | 'postgres', bytes: Uint8Array) {
  const db = await freshDb(dialect);
  const server = await startServer({ ...db.env, ADMIN_PHONE: ADMIN.phone, ADMIN_PASSWORD: ADMIN.password });
  try {
    const pid = server.child.pid!;
    const { token } = await call<StaffLoginData>(server.base, 'POST', '/admin/auth/login', ADMIN);
    const auth = { authorization: `Bearer ${token}` };
    const folder = await call<BankFolderNode>(
      server.base,
      'POST',
      '/admin/bank/folders',
      { name: 'Bench import' },
      auth,
    );
    // Idle after a login and a write, so the figure holds what every request needs, not the file's share.
    await new Promise((r) => setTimeout(r, 500));
    const idleMb = procMb(pid, 'VmRSS');
    const sampler = rssSampler(pid);
    let peakMb = idleMb;
    try {
      const preview = await uploadOverHttp<ImportPreviewData>(
        server.base,
        '/admin/bank/imports/preview',
        token,
        { folder_id: String(folder.id) },
        { name: FILE_NAME, bytes },
      );
      if (preview.data.counts.valid !== QUESTIONS || preview.data.counts.errors > 0) {
        throw new Error(
          `preview: ${preview.data.counts.valid} valid of ${QUESTIONS}, ${preview.data.counts.errors} error(s)`,
        );
      }
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (preview.data.sha256 !== sha256) throw new Error(`preview: sha256 ${preview.data.sha256} is not ${sha256}`);
      // The import runs as a job: its time is from the upload to the job's end.
      const started = performance.now();
      const { data: job } = await uploadOverHttp<{ job_id: number }>(
        server.base,
        '/admin/bank/imports',
        token,
        { folder_id: String(folder.id), sha256 },
        { name: FILE_NAME, bytes },
      );
      const commit = { data: await jobResultOverHttp<ImportCommitData>(server.base, token, job.job_id), ms: 0 };
      commit.ms = performance.now() - started;
      peakMb = sampler.stop();
      const tree = await call<BankFolderTree>(server.base, 'GET', '/admin/bank/folders', undefined, auth);
      const stored = tree.list.find((f) => f.id === folder.id)?.total_count ?? 0;
      if (commit.data.question_ids.length !== QUESTIONS || stored !== QUESTIONS) {
        throw new Error(
          `import: ${commit.data.question_ids.length} ids answered and ${stored} questions stored, not ${QUESTIONS}`,
        );
      }
      return {
        previewMs: preview.ms,
        importMs: commit.ms,
        foldersCreated: commit.data.folders_created,
        stored,
        idleMb,
        peakMb,
      };
    } finally {
      sampler.cancel();
    }
  } finally {
    await server.stop();
    await db.drop();
  }
}

const ms = (n: number) => `${Math.round(n)} ms`;
const mb = (n: number) => `${n.toFixed(1)} MB`;

async function main() {
  const built = performance.now();
  const exported = await exportQuestions('xlsx', drafts(QUESTIONS));
  if (exported.problems.length > 0) throw new Error(`export: ${exported.problems[0]!.message}`);
  const bytes = exported.bytes;
  console.log(
    `question import: one workbook of ${QUESTIONS} questions (single, multiple, indefinite, true/false, fill-in, Q&A, gradient), ` +
      `${mb(bytes.length / 1024 / 1024)}, written in ${ms(performance.now() - built)}; the bench shares the machine's cores`,
  );
  const parse = await parseTimes(bytes);
  console.log(`parse in-process (importFile, ${PARSE_RUNS} runs): min ${ms(parse.min)}, median ${ms(parse.median)}`);
  let first: Awaited<ReturnType<typeof overHttp>> | null = null;
  for (const dialect of DIALECTS) {
    const r = await overHttp(dialect, bytes);
    console.log(
      `${dialect.padEnd(9)} preview ${ms(r.previewMs)} | import ${ms(r.importMs)} (${r.stored} stored, ${r.foldersCreated} folders created) | ` +
        `server RSS idle ${mb(r.idleMb)}, peak ${mb(r.peakMb)} (+${mb(r.peakMb - r.idleMb)})`,
    );
    first ??= r;
  }
  if (!first) throw new Error('BENCH_DIALECTS names no dialect (sqlite, postgres)');
  // One line for scripts to read: the first dialect's figures (SQLite unless BENCH_DIALECTS says otherwise).
  console.log(
    JSON.stringify({
      questions: QUESTIONS,
      parse_ms: Math.round(parse.median),
      preview_ms: Math.round(first.previewMs),
      import_ms: Math.round(first.importMs),
      server_peak_rss_mb: Math.round(first.peakMb),
      server_idle_rss_mb: Math.round(first.idleMb),
    }),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
