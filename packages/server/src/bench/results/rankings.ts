/**
 * Rankings of one exam with 50,000 finished attempts (BENCH_ATTEMPTS) on a fresh SQLite database: the demo exam
 * (eleven scored questions in two sections) seeded, then candidates, attempts, one score row per question and
 * some risk records written directly (setup, not timed). Timed, each the min and median of BENCH_RUNS: the first
 * page by total, the first page by a section, a filtered page (school and score range), the last page, and every
 * row in rank order as an export reads them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate, openDb, type Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { GradingRepository } from '../../repositories/grading.js';
import { ResultsRepository, type RankingSpec } from '../../repositories/results.js';
import { seedDemo } from '../../services/demoSeed.js';
import { LocalObjectStore } from '../../storage/objectStore.js';
import { random } from '../resultsSeed.js';
import type { ResultsSection } from './section.js';

const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Rows per insert statement (SQLite binds at most 32,766 values a statement). */
const CHUNK = 1_000;
const SCHOOLS = [
  'Tsinghua University',
  'Peking University',
  'Fudan University',
  'Zhejiang University',
  'Wuhan University',
];
const MAJORS = ['Computer Science', 'Mathematics', 'Physics', 'Electronics', 'Statistics'];

/** Inserts rows in chunks. */
async function insertAll<T extends keyof Database>(db: Db, table: T, rows: readonly object[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .execute();
  }
}

/** Seeds the exam and its attempts; answers the exam id. */
async function seed(db: Db, dir: string): Promise<number> {
  const now = Date.now();
  const demo = await seedDemo(db, new LocalObjectStore(path.join(dir, 'store')), '13800138000', now);
  const examId = demo!.examId;
  const exam = await db.selectFrom('exams').select('published_version_id').where('id', '=', examId).executeTakeFirst();
  const versionId = exam!.published_version_id!;
  const questions = await db
    .selectFrom('questions as q')
    .innerJoin('exam_sections as s', 's.id', 'q.section_id')
    .select(['q.id', 'q.score', 'q.kind', 's.kind as section'])
    .where('q.version_id', '=', versionId)
    .where('s.kind', '!=', 'evaluation')
    .orderBy('q.id')
    .execute();
  const max = questions.reduce((n, q) => n + q.score, 0);
  // Deterministic: every run ranks the same scores.
  const rand = random(42);
  const candidates = Array.from({ length: ATTEMPTS }, (_, i) => ({
    area_code: '86',
    phone: `139${String(i).padStart(8, '0')}`,
    name: `Candidate ${i}`,
    school: SCHOOLS[i % SCHOOLS.length]!,
    major: MAJORS[(i * 7) % MAJORS.length]!,
    degree: null,
    graduation_year: 2025,
    created_at: now,
    last_login_at: now,
  }));
  await insertAll(db, 'candidates', candidates);
  const candidateIds = (await db.selectFrom('candidates').select('id').orderBy('id').execute()).map((r) => r.id);
  await insertAll(
    db,
    'invitations',
    candidates.map((c) => ({ exam_id: examId, area_code: '86', phone: c.phone, extra_minutes: 0, created_at: now })),
  );
  const invitationIds = (
    await db.selectFrom('invitations').select('id').where('exam_id', '=', examId).orderBy('id').execute()
  ).map((r) => r.id);
  // Points per question: a whole or half point share, so many totals tie as on a real exam.
  const points = candidateIds.map(() =>
    questions.map((q) => (q.kind === 'qa' && rand() < 0.1 ? null : Math.round(rand() * q.score * 2) / 2)),
  );
  await insertAll(
    db,
    'attempts',
    candidateIds.map((cid, i) => ({
      exam_id: examId,
      candidate_id: cid,
      invitation_id: invitationIds[i]!,
      mode: 1,
      phase: 3,
      created_at: now,
      started_at: now - 3_600_000,
      end_at: now,
      finished_at: now - Math.floor(rand() * 600_000),
      finish_reason: 'submit',
      score: points[i]!.reduce<number>((n, p) => n + (p ?? 0), 0),
      max_score: max,
      version_id: versionId,
    })),
  );
  const attemptIds = (
    await db.selectFrom('attempts').select('id').where('exam_id', '=', examId).orderBy('id').execute()
  ).map((r) => r.id);
  const scores: object[] = [];
  const risks: object[] = [];
  attemptIds.forEach((aid, i) => {
    questions.forEach((q, j) => {
      const kind =
        q.kind === 'qa' || q.kind === 'programming_qa' ? 'manual' : q.kind === 'programming' ? 'judge' : 'auto';
      scores.push({
        attempt_id: aid,
        question_id: q.id,
        exam_id: examId,
        source: kind,
        points: points[i]![j],
        max: q.score,
        updated_at: now,
      });
    });
    const n = rand() < 0.2 ? 1 + Math.floor(rand() * 3) : 0;
    for (let k = 0; k < n; k++) {
      risks.push({
        attempt_id: aid,
        risk: 1,
        category: 1,
        trigger_time: now,
        detail: '',
        image_key: null,
        client_id: `bench-${k}`,
        prev_hash: `${aid}-${k}`,
        hash: `${aid}-${k + 1}`,
        created_at: now,
        kind: 'risk',
        decision: k === 0 && rand() < 0.3 ? 'confirmed' : null,
      });
    }
  });
  await insertAll(db, 'question_scores', scores);
  await insertAll(db, 'risk_records', risks);
  // What the server keeps on each attempt as it writes its scores.
  await new GradingRepository(db).keepTotalsOf(attemptIds);
  return examId;
}

/** Min and median of `RUNS` timings of `f`, in ms. */
async function time(f: () => Promise<unknown>): Promise<{ min: number; median: number }> {
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await f();
    runs.push(performance.now() - start);
  }
  runs.sort((a, b) => a - b);
  return { min: Math.round(runs[0]!), median: Math.round(runs[Math.floor(runs.length / 2)]!) };
}

/** The rankings section of `npm run bench:results`. */
export const rankingsSection: ResultsSection = {
  name: 'rankings',
  async run(log) {
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'examhall-bench-rankings-'));
    const handle = openDb({ sqliteFile: path.join(dir, 'bench.sqlite') });
    try {
      await migrate(handle);
      const seedStart = performance.now();
      const examId = await seed(handle.db, dir);
      log(
        `seeded ${ATTEMPTS.toLocaleString('en')} finished attempts in ${Math.round(performance.now() - seedStart)} ms`,
      );
      const repo = new ResultsRepository(handle.db);
      const spec: RankingSpec = { examId, sort: 'rank', order: 'asc' };
      const figures: Record<string, number> = { attempts: ATTEMPTS };
      const cases: [string, () => Promise<unknown>][] = [
        ['first_page_ms', () => repo.ranking(spec, 0, 20)],
        ['section_page_ms', () => repo.ranking({ ...spec, section: 'major' }, 0, 20)],
        [
          'filtered_page_ms',
          () => repo.ranking({ ...spec, school: 'tsinghua', scoreMin: 20, scoreMax: 50, riskMax: 1 }, 0, 20),
        ],
        ['last_page_ms', () => repo.ranking(spec, ATTEMPTS - 20, 20)],
        ['all_rows_ms', () => repo.allRanked(spec)],
      ];
      for (const [name, f] of cases) {
        const t = await time(f);
        figures[name] = t.median;
        log(`${name.replace(/_ms$/, '').replace(/_/g, ' ')}: min ${t.min} ms, median ${t.median} ms`);
      }
      const top = await repo.ranking(spec, 0, 3);
      log(`top scores: ${top.rows.map((r) => `${r.score} (rank ${r.rank})`).join(', ')}; ${top.total} ranked`);
      return figures;
    } finally {
      await handle.db.destroy();
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  },
};
