/**
 * npm run bench:candidates — one workbook of 10,000 candidates: how long reading it takes in-process (the
 * table reader and the row checks), how long the server's preview takes over HTTP and the import job takes to
 * write every candidate (followed through the job's detail), and the server process's resident memory idle and
 * at its peak during them.
 */
import type { CandidateImportPreviewData, StaffLoginData } from '@examhall/contract';
import { CANDIDATE_LIMITS } from '@examhall/contract';
import { readTable, writeTable } from '@examhall/importers';
import { readCandidateRows } from '../services/candidateSheet.js';
import { call, freshDb, jobResultOverHttp, procMb, rssSampler, startServer } from './harness.js';

const ROWS = Number(process.env.BENCH_CANDIDATES ?? 10_000);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite')
  .split(',')
  .filter((d): d is 'sqlite' | 'postgres' => d === 'sqlite' || d === 'postgres');
const ADMIN = { phone: '13900000000', password: 'bench-admin-password' };
const FILE_NAME = 'candidates.xlsx';

/** The workbook: the known columns in Chinese and two custom columns, every phone different. */
async function workbook(): Promise<Uint8Array> {
  const header = ['手机号', '姓名', '邮箱', '学校', '专业', '学历', '毕业年份', '意向岗位', '来源'];
  const rows = Array.from({ length: ROWS }, (_, i) => [
    `139${String(i).padStart(8, '0')}`,
    `考生${i}`,
    `c${i}@example.com`,
    `学校${i % 300}`,
    ['计算机科学与技术', '软件工程', '数学', '电子信息'][i % 4]!,
    ['本科', '硕士', '博士'][i % 3]!,
    2025 + (i % 3),
    ['后端开发', '前端开发', '算法'][i % 3]!,
    '校园招聘',
  ]);
  return writeTable('xlsx', header, rows);
}

/** Posts the file as a browser would (multipart); answers `data` and the milliseconds taken. */
async function upload<T>(base: string, url: string, token: string, fields: Record<string, string>, bytes: Uint8Array) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([bytes]), FILE_NAME);
  const started = performance.now();
  const res = await fetch(`${base}/api${url}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const env = (await res.json()) as { status: string; msg: string; data: T };
  if (env.status !== 'success') throw new Error(`POST ${url}: ${res.status} ${env.msg}`);
  return { data: env.data, ms: performance.now() - started };
}

/** Reads the file in this process: the table, then the candidates. */
async function parseMs(bytes: Uint8Array): Promise<number> {
  const started = performance.now();
  const table = await readTable(FILE_NAME, bytes, {
    fileBytes: CANDIDATE_LIMITS.fileBytes,
    rows: CANDIDATE_LIMITS.importRows,
    columns: 100,
  });
  if (table.refused) throw new Error(table.problem.message);
  const read = readCandidateRows(table.header, table.rows);
  if (read.entries.filter((e) => e.valid).length !== ROWS) throw new Error(`read ${read.entries.length} of ${ROWS}`);
  return performance.now() - started;
}

/** Preview and import over HTTP against a fresh server. */
async function overHttp(dialect: 'sqlite' | 'postgres', bytes: Uint8Array) {
  const db = await freshDb(dialect);
  const server = await startServer({ ...db.env, ADMIN_PHONE: ADMIN.phone, ADMIN_PASSWORD: ADMIN.password });
  try {
    const pid = server.child.pid!;
    const { token } = await call<StaffLoginData>(server.base, 'POST', '/admin/auth/login', ADMIN);
    await new Promise((r) => setTimeout(r, 500));
    const idleMb = procMb(pid, 'VmRSS');
    const sampler = rssSampler(pid);
    const preview = await upload<CandidateImportPreviewData>(
      server.base,
      '/admin/candidates/import/preview',
      token,
      {},
      bytes,
    );
    if (preview.data.counts.create !== ROWS) throw new Error(`preview: ${preview.data.counts.create} new of ${ROWS}`);
    const started = performance.now();
    const { data } = await upload<{ job_id: number }>(
      server.base,
      '/admin/candidates/import',
      token,
      { sha256: preview.data.sha256 },
      bytes,
    );
    const result = await jobResultOverHttp<{ created: number }>(server.base, token, data.job_id);
    const commitMs = performance.now() - started;
    const peakMb = sampler.stop();
    if (result.created !== ROWS) throw new Error(`import: ${result.created} created of ${ROWS}`);
    return { previewMs: preview.ms, commitMs, idleMb, peakMb };
  } finally {
    await server.stop();
    await db.drop();
  }
}

const bytes = await workbook();
console.log(`candidates bench: ${ROWS} rows, ${(bytes.length / 1024).toFixed(0)} KB xlsx`);
console.log(`parse in-process: ${(await parseMs(bytes)).toFixed(0)} ms`);
for (const dialect of DIALECTS) {
  const r = await overHttp(dialect, bytes);
  console.log(
    `${dialect}: preview ${r.previewMs.toFixed(0)} ms, import job ${r.commitMs.toFixed(0)} ms, ` +
      `server RSS idle ${r.idleMb.toFixed(0)} MB, peak ${r.peakMb.toFixed(0)} MB`,
  );
}
