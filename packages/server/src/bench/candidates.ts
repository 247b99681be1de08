/**
 * npm run bench:candidates — one workbook of 10,000 candidates: how long reading it takes in-process (the
 * table reader and the row checks), how long the server's preview takes over HTTP and the import job takes to
 * write every candidate (followed through the job's detail), and the server process's resident memory idle and
 * at its peak during them.
 */
import type { CandidateImportPreviewData, StaffLoginData } from '@examhall/contract';
import { FILE_NAME, parseMs, workbook } from './candidateFile.js';
import { call, freshDb, jobResultOverHttp, procMb, uploadOverHttp, rssSampler, startServer } from './harness.js';

const ROWS = Number(process.env.BENCH_CANDIDATES ?? 10_000);
const DIALECTS = (process.env.BENCH_DIALECTS ?? 'sqlite')
  .split(',')
  .filter((d): d is 'sqlite' | 'postgres' => d === 'sqlite' || d === 'postgres');
const ADMIN = { phone: '13900000000', password: 'bench-admin-password' };

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
    const preview = await uploadOverHttp<CandidateImportPreviewData>(
      server.base,
      '/admin/candidates/import/preview',
      token,
      {},
      { name: FILE_NAME, bytes },
    );
    if (preview.data.counts.create !== ROWS) throw new Error(`preview: ${preview.data.counts.create} new of ${ROWS}`);
    const started = performance.now();
    const { data } = await uploadOverHttp<{ job_id: number }>(
      server.base,
      '/admin/candidates/import',
      token,
      { sha256: preview.data.sha256 },
      { name: FILE_NAME, bytes },
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

const bytes = await workbook(ROWS);
console.log(`candidates bench: ${ROWS} rows, ${(bytes.length / 1024).toFixed(0)} KB xlsx`);
console.log(`parse in-process: ${(await parseMs(bytes, ROWS)).toFixed(0)} ms`);
for (const dialect of DIALECTS) {
  const r = await overHttp(dialect, bytes);
  console.log(
    `${dialect}: preview ${r.previewMs.toFixed(0)} ms, import job ${r.commitMs.toFixed(0)} ms, ` +
      `server RSS idle ${r.idleMb.toFixed(0)} MB, peak ${r.peakMb.toFixed(0)} MB`,
  );
}
