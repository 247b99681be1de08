/**
 * npm run bench:invite — 10,000 candidates from one xlsx invited to an exam by SMS, against the built server as
 * its own process with a loopback SMS gateway: how long reading the file takes in-process, the candidate import
 * (preview, then its job), the bulk invitation job (invitations stored, texts queued) and the texts' delivery at
 * SMS_RATE. Progress is printed as the console reads it: the jobs' detail, then the exam's text counts.
 */
import type { CandidateImportPreviewData, JobView, SmsListData, StaffLoginData } from '@examhall/contract';
import { FILE_NAME, parseMs, phoneOf, workbook } from './candidateFile.js';
import { call, freshDb, procMb, rssSampler, smsInbox, startServer, uploadOverHttp } from './harness.js';

const ROWS = Number(process.env.BENCH_CANDIDATES ?? 10_000);
/** Texts a second the server may send (its SMS_RATE). */
const RATE = Number(process.env.BENCH_SMS_RATE ?? 500);
const DIALECT = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
const ADMIN = { phone: '13900000000', password: 'bench-admin-password' };

/** Follows a job, printing its progress as the console shows it, until it ends; answers its result and time. */
async function follow<T>(base: string, auth: Record<string, string>, jobId: number, what: string) {
  const started = performance.now();
  let printed = 0;
  for (;;) {
    const job = await call<JobView>(base, 'GET', `/admin/jobs/detail?job_id=${jobId}`, undefined, auth);
    if (performance.now() - printed > 1000 || job.state !== 'running') {
      console.log(`  ${what}: ${job.state} ${job.progress.done}/${job.progress.total}`);
      printed = performance.now();
    }
    if (job.state === 'done') return { result: job.result as T, ms: performance.now() - started };
    if (job.state !== 'queued' && job.state !== 'running')
      throw new Error(`${what}: ${job.state} ${job.error?.message}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const bytes = await workbook(ROWS);
console.log(
  `invitations: ${ROWS} candidates in one xlsx (${(bytes.length / 1e6).toFixed(1)} MB), SMS_RATE ${RATE}/s, ${DIALECT}`,
);
const parse = await parseMs(bytes, ROWS);
console.log(`parse in-process: ${parse.toFixed(0)} ms`);

const db = await freshDb(DIALECT);
const inbox = await smsInbox();
const server = await startServer({
  ...db.env,
  ADMIN_PHONE: ADMIN.phone,
  ADMIN_PASSWORD: ADMIN.password,
  SMS_PROVIDER: 'webhook',
  SMS_WEBHOOK_URL: inbox.url,
  SMS_RATE: String(RATE),
});
try {
  const pid = server.child.pid!;
  const { token } = await call<StaffLoginData>(server.base, 'POST', '/admin/auth/login', ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  const handle = db.open();
  const exam = await handle.db.selectFrom('exams').select('id').executeTakeFirstOrThrow();
  await handle.db.destroy();
  const sampler = rssSampler(pid);
  const idleMb = procMb(pid, 'VmRSS');

  const file = { name: FILE_NAME, bytes };
  const preview = await uploadOverHttp<CandidateImportPreviewData>(
    server.base,
    '/admin/candidates/import/preview',
    token,
    {},
    file,
  );
  if (preview.data.counts.create !== ROWS) throw new Error(`preview: ${preview.data.counts.create} new of ${ROWS}`);
  console.log(`candidate preview: ${preview.ms.toFixed(0)} ms`);
  const started = await uploadOverHttp<{ job_id: number }>(
    server.base,
    '/admin/candidates/import',
    token,
    { sha256: preview.data.sha256 },
    file,
  );
  const stored = await follow<{ created: number }>(server.base, auth, started.data.job_id, 'candidate import');
  if (stored.result.created !== ROWS) throw new Error(`candidate import: ${stored.result.created} of ${ROWS}`);

  // The imported candidates, invited by phone to the demo exam.
  const inviteStart = performance.now();
  const phones = Array.from({ length: ROWS }, (_, i) => ({ area_code: '86', phone: phoneOf(i) }));
  const bulk = await call<{ job_id: number }>(
    server.base,
    'POST',
    '/admin/exam/invitations/bulk',
    { exam_id: exam.id, phones },
    auth,
  );
  const invited = await follow<{ created: number; queued: number }>(server.base, auth, bulk.job_id, 'bulk invitation');
  if (invited.result.created !== ROWS || invited.result.queued !== ROWS) {
    throw new Error(`bulk invitation: ${JSON.stringify(invited.result)}`);
  }
  // The texts go out at SMS_RATE; the console's counts say how far.
  let lastPrint = 0;
  for (;;) {
    const sms = await call<SmsListData>(
      server.base,
      'GET',
      `/admin/exam/sms?exam_id=${exam.id}&page_size=1`,
      undefined,
      auth,
    );
    if (performance.now() - lastPrint > 2000 || sms.counts.sent >= ROWS) {
      console.log(
        `  texts: sent ${sms.counts.sent}, queued ${sms.counts.queued}, failed ${sms.counts.failed}; gateway has ${inbox.texts.size}`,
      );
      lastPrint = performance.now();
    }
    if (sms.counts.sent >= ROWS) break;
    if (sms.counts.failed > 0) throw new Error(`${sms.counts.failed} texts failed`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const deliveredMs = performance.now() - inviteStart;
  const peakMb = sampler.stop();
  const phonesReached = new Set([...inbox.texts.values()].map((t) => t.phone)).size;
  if (inbox.texts.size !== ROWS || phonesReached !== ROWS)
    throw new Error(`gateway: ${inbox.texts.size} texts to ${phonesReached} phones`);
  const figures = {
    candidates: ROWS,
    sms_rate: RATE,
    parse_ms: Math.round(parse),
    candidate_preview_ms: Math.round(preview.ms),
    candidate_import_ms: Math.round(stored.ms),
    invitation_job_ms: Math.round(invited.ms),
    all_texts_delivered_ms: Math.round(deliveredMs),
    texts_per_s: Math.round((ROWS / deliveredMs) * 1000),
    server_idle_rss_mb: Math.round(idleMb),
    server_peak_rss_mb: Math.round(peakMb),
  };
  console.log(
    `${DIALECT}: parse ${figures.parse_ms} ms, candidate preview ${figures.candidate_preview_ms} ms, ` +
      `candidate import job ${figures.candidate_import_ms} ms, invitation job ${figures.invitation_job_ms} ms, ` +
      `every text at the gateway after ${figures.all_texts_delivered_ms} ms (${figures.texts_per_s}/s at SMS_RATE ${RATE}), ` +
      `server RSS idle ${figures.server_idle_rss_mb} MB, peak ${figures.server_peak_rss_mb} MB`,
  );
  console.log(JSON.stringify(figures));
} finally {
  await server.stop();
  inbox.close();
  await db.drop();
}
