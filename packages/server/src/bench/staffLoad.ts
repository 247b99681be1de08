/**
 * The staff's heavy work during an exam, all through the API as an admin, one action after another as one person's
 * script: a 20,000-question GIFT import (preview, then its job), a 10,000-row candidate workbook (preview, then its
 * job), a code-similarity run over the exam's programming answers and the pair view of its top pair, the item
 * analysis, the ranking's first and last pages, and an xlsx results export. Each action's own time is kept, or its
 * error: one failing does not stop the others (nor the candidates beside them).
 */
import type {
  BankFolderNode,
  CandidateImportPreviewData,
  ImportPreviewData,
  RankingData,
  SimilarityPairsData,
  SimilarityQuestionsData,
  StaffLoginData,
} from '@examhall/contract';
import { workbook } from './candidateFile.js';
import { call, jobResultOverHttp, uploadOverHttp } from './harness.js';

/** The admin the server is started with (ADMIN_PHONE, ADMIN_PASSWORD). */
export const STAFF_ADMIN = { phone: '13900000000', password: 'bench-admin-password' };

/** Questions of the GIFT file and rows of the candidate workbook. */
export const STAFF_QUESTIONS = 20_000;
export const STAFF_CANDIDATE_ROWS = 10_000;
/** The similarity run compares at most this many submissions (the mix saves code for that many candidates). */
export const SIMILARITY_SUBMISSIONS = 1_000;

/** One staff action's outcome. */
export interface StaffAction {
  action: string;
  ms: number | null;
  error: string | null;
  /** When it began and ended (performance.now() of the bench's process), to tell which slow calls it overlapped. */
  started: number;
  ended: number;
}

/** A GIFT file of `count` questions of the kinds GIFT has, each stem numbered so none repeats. */
export function giftText(count: number): string {
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    const no = n + 1;
    out.push(`// [tag:bench] [tag:set-${n % 10}]`);
    switch (n % 5) {
      case 0:
        out.push(`::Q${no}::Question ${no}\\: 2, 4, 8, ? {=16 ~12 ~24 ~32}`);
        break;
      case 1:
        out.push(`::Q${no}::Question ${no}\\: which are prime? {~%50%2 ~%-100%9 ~%50%11 ~%-100%15}`);
        break;
      case 2:
        out.push(`::Q${no}::Question ${no}\\: every square is a rectangle.{T}`);
        break;
      case 3:
        out.push(`::Q${no}::Question ${no}\\: HTTP status for not found {=404 =Not Found}`);
        break;
      default:
        out.push(`::Q${no}::Question ${no}\\: describe the four ACID properties of a transaction.{}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/**
 * Candidate `i`'s answer to the programming Q&A question: a palindrome check in one of a few shapes, names and
 * comments varied per candidate, so the similarity run has close pairs and far ones to rank.
 */
export function codeAnswerOf(i: number): string {
  const v = `s${i % 37}`;
  switch (i % 4) {
    case 0:
      return `def is_palindrome(${v}):\n    # candidate ${i}\n    return ${v} == ${v}[::-1]\n\nprint(is_palindrome(input()))\n`;
    case 1:
      return `def is_palindrome(${v}):\n    i, j = 0, len(${v}) - 1\n    while i < j:\n        if ${v}[i] != ${v}[j]:\n            return False\n        i += 1\n        j -= 1\n    return True\n\nprint(is_palindrome(input()))  # ${i}\n`;
    case 2:
      return `import sys\n\ndef check(${v}):\n    n = len(${v})\n    for k in range(n // 2):\n        if ${v}[k] != ${v}[n - 1 - k]:\n            return False\n    return True\n\nline = sys.stdin.readline().strip()\nprint("yes" if check(line) else "no")  # ${i}\n`;
    default:
      return `def rev(${v}):\n    out = ''\n    for ch in ${v}:\n        out = ch + out\n    return out\n\nword = input().strip()\nprint(word == rev(word))  # candidate ${i % 50}\n`;
  }
}

/** Runs the staff's script once against `base`; answers each action's time or error, in order. */
/** The files the admin uploads, made before the script runs (not beside the candidates' timed calls). */
export interface StaffFiles {
  gift: Uint8Array;
  sheet: Uint8Array;
}

/**
 * Makes the staff's files: a 20,000-question GIFT text and a 10,000-row workbook take the bench's process seconds
 * of CPU, during which its event loop would time every candidate's call late.
 */
export async function staffFiles(): Promise<StaffFiles> {
  return { gift: new TextEncoder().encode(giftText(STAFF_QUESTIONS)), sheet: await workbook(STAFF_CANDIDATE_ROWS) };
}

export async function runStaffLoad(base: string, examId: number, files: StaffFiles): Promise<StaffAction[]> {
  const done: StaffAction[] = [];
  /** Times one action; on an error notes it and answers null, so the script goes on. */
  async function act<T>(action: string, work: () => Promise<T>): Promise<T | null> {
    const started = performance.now();
    try {
      const out = await work();
      const ended = performance.now();
      done.push({ action, ms: Math.round(ended - started), error: null, started, ended });
      return out;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      done.push({ action, ms: null, error, started, ended: performance.now() });
      return null;
    }
  }

  const login = await act('staff login', () => call<StaffLoginData>(base, 'POST', '/admin/auth/login', STAFF_ADMIN));
  if (!login) return done;
  const token = login.token;
  const auth = { authorization: `Bearer ${token}` };
  const get = <T>(url: string) => call<T>(base, 'GET', url, undefined, auth);

  // Questions: the file is written here, before the clock of its actions starts.
  const giftFile = { name: 'bench.gift', bytes: files.gift };
  const folder = await act('bank folder', () =>
    call<BankFolderNode>(base, 'POST', '/admin/bank/folders', { name: 'Bench GIFT import' }, auth),
  );
  if (folder) {
    const preview = await act(`GIFT preview (${STAFF_QUESTIONS} questions)`, async () => {
      const p = await uploadOverHttp<ImportPreviewData>(
        base,
        '/admin/bank/imports/preview',
        token,
        { folder_id: String(folder.id) },
        giftFile,
      );
      if (p.data.counts.valid !== STAFF_QUESTIONS)
        throw new Error(`${p.data.counts.valid} valid of ${STAFF_QUESTIONS}, ${p.data.counts.errors} error(s)`);
      return p.data;
    });
    if (preview)
      await act('GIFT import (job)', async () => {
        const { data } = await uploadOverHttp<{ job_id: number }>(
          base,
          '/admin/bank/imports',
          token,
          { folder_id: String(folder.id), sha256: preview.sha256 },
          giftFile,
        );
        const r = await jobResultOverHttp<{ question_ids: number[] }>(base, token, data.job_id);
        if (r.question_ids.length !== STAFF_QUESTIONS) throw new Error(`${r.question_ids.length} stored`);
      });
  }

  const sheet = { name: 'candidates.xlsx', bytes: files.sheet };
  const sheetPreview = await act(`candidate preview (${STAFF_CANDIDATE_ROWS} rows xlsx)`, async () => {
    const p = await uploadOverHttp<CandidateImportPreviewData>(
      base,
      '/admin/candidates/import/preview',
      token,
      {},
      sheet,
    );
    if (p.data.counts.create !== STAFF_CANDIDATE_ROWS)
      throw new Error(`${p.data.counts.create} new of ${STAFF_CANDIDATE_ROWS}`);
    return p.data;
  });
  if (sheetPreview)
    await act('candidate import (job)', async () => {
      const { data } = await uploadOverHttp<{ job_id: number }>(
        base,
        '/admin/candidates/import',
        token,
        { sha256: sheetPreview.sha256 },
        sheet,
      );
      const r = await jobResultOverHttp<{ created: number }>(base, token, data.job_id);
      if (r.created !== STAFF_CANDIDATE_ROWS) throw new Error(`${r.created} created`);
    });

  const question = await act('similarity questions', async () => {
    const q = await get<SimilarityQuestionsData>(`/admin/grading/similarity/questions?exam_id=${examId}`);
    const best = [...q.list].sort((a, b) => b.submissions - a.submissions)[0];
    if (!best?.submissions) throw new Error('no programming answers to compare');
    return best;
  });
  if (question) {
    const ran = await act(`similarity run (${question.submissions} submissions, job)`, async () => {
      const { job_id } = await call<{ job_id: number }>(
        base,
        'POST',
        '/admin/grading/similarity/run',
        { exam_id: examId, question_id: question.question_id },
        auth,
      );
      await jobResultOverHttp(base, token, job_id);
      return true;
    });
    const top = ran
      ? await act('similarity pairs (first page)', async () => {
          const pairs = await get<SimilarityPairsData>(
            `/admin/grading/similarity/pairs?exam_id=${examId}&question_id=${question.question_id}&page_size=20`,
          );
          const first = pairs.list[0];
          if (!first) throw new Error('no pair stored');
          return first;
        })
      : null;
    if (top)
      await act('similarity pair view (top pair)', () =>
        get(`/admin/grading/similarity/pair?exam_id=${examId}&pair_id=${top.id}`),
      );
  }

  await act('item analysis', () => get(`/admin/analysis/items?exam_id=${examId}`));
  const PAGE = 20;
  const first = await act('ranking first page', () =>
    get<RankingData>(`/admin/results/ranking?exam_id=${examId}&page=1&page_size=${PAGE}`),
  );
  if (first) {
    const last = Math.max(1, Math.ceil(first.total / PAGE));
    await act('ranking last page', () =>
      get<RankingData>(`/admin/results/ranking?exam_id=${examId}&page=${last}&page_size=${PAGE}`),
    );
  }
  await act('results export xlsx (job)', async () => {
    const { job_id } = await call<{ job_id: number }>(
      base,
      'POST',
      '/admin/results/export',
      { exam_id: examId, format: 'xlsx' },
      auth,
    );
    await jobResultOverHttp(base, token, job_id);
  });
  return done;
}
