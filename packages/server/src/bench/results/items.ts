/**
 * Item analysis of 50,000 finished attempts at a 40-question exam (BENCH_ATTEMPTS, BENCH_QUESTIONS; BENCH_DIALECT
 * sqlite, the default, or postgres): the attempts are seeded in bulk (`seedBenchResults`, not timed as analysis),
 * then the analysis is computed as the worker's `item_analysis` job does (the first time, and the median of the
 * runs after), and the console page's view of the kept figures is timed as an API process answers it. Checks that
 * the questions the data reverses, and only those, are flagged, and that a current analysis queues no job.
 */
import { migrate } from '../../db/database.js';
import { AccessService, type StaffActor } from '../../services/access.js';
import { AnalysisRepository } from '../../repositories/analysis.js';
import { AnalysisService } from '../../services/analysis.js';
import { ExamCatalog } from '../../services/catalog.js';
import { freshDb } from '../harness.js';
import type { ResultsSection } from './section.js';
import { seedBenchResults } from '../resultsSeed.js';

const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 50_000);
const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 40);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DIALECT = process.env.BENCH_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

/** The admin the page would be opened by (admins reach every exam). */
const ADMIN: StaffActor = { id: 1, name: 'Bench admin', phone: '13900000000', role: 'admin', teamId: null };

const quiet = () => undefined;
const NO_LOG = { fatal: quiet, error: quiet, warn: quiet, info: quiet, debug: quiet, trace: quiet };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export const itemsSection: ResultsSection = {
  name: 'items',
  async run(log) {
    const target = await freshDb(DIALECT);
    const handle = target.open();
    try {
      await migrate(handle);
      const seeded = await seedBenchResults(handle.db, { attempts: ATTEMPTS, questions: QUESTIONS, now: Date.now() });
      log(
        `${ATTEMPTS} finished attempts x ${QUESTIONS} questions seeded on ${DIALECT} in ${Math.round(seeded.seedMs)} ms ` +
          `(${ATTEMPTS * QUESTIONS} per-question rows)`,
      );
      const clock = () => Date.now();
      const catalog = new ExamCatalog(handle.db, clock);
      const service = new AnalysisService(handle.db, {
        access: new AccessService(handle.db),
        jobs: {
          startOnce: () => Promise.reject(new Error('a view of current figures queued a job')),
        },
        catalog,
        clock,
        log: NO_LOG,
      });
      const exam = await handle.db
        .selectFrom('exams')
        .select('published_version_id')
        .where('id', '=', seeded.exam.examId)
        .executeTakeFirstOrThrow();
      const version = (await catalog.version(exam.published_version_id!))!;
      const times: number[] = [];
      const cpu: number[] = [];
      for (let run = 0; run <= RUNS; run++) {
        const t = performance.now();
        const c = process.cpuUsage();
        const basis = await new AnalysisRepository(handle.db).scoreBasis(version.exam_id);
        await service.keep(version, basis, clock(), await service.analyse(version));
        times.push(performance.now() - t);
        const used = process.cpuUsage(c);
        cpu.push((used.user + used.system) / 1000);
      }
      const views: number[] = [];
      let data = null;
      for (let run = 0; run < 20; run++) {
        const t = performance.now();
        data = await service.items(ADMIN, {
          exam_id: seeded.exam.examId,
          page: 1,
          page_size: 200,
          sort: 'number',
          order: 'asc',
          flagged: false,
        });
        views.push(performance.now() - t);
      }
      const flagged = data!.items.filter((i) => i.flagged).map((i) => i.number - 1);
      if (JSON.stringify(flagged) !== JSON.stringify(seeded.reversed)) {
        throw new Error(`flagged questions ${flagged.join(',')}, the data reverses ${seeded.reversed.join(',')}`);
      }
      const figures = {
        dialect: DIALECT,
        attempts: data!.exam.attempts,
        questions: data!.exam.questions,
        seed_ms: Math.round(seeded.seedMs),
        first_ms: Math.round(times[0]!),
        median_ms: Math.round(median(times.slice(1))),
        // On SQLite the database works in this thread, so this is the whole cost; on PostgreSQL the server's is not in it.
        median_cpu_ms: Math.round(median(cpu.slice(1))),
        view_median_ms: Math.round(median(views) * 10) / 10,
        flagged: flagged.length,
        alpha: Math.round((data!.exam.alpha ?? 0) * 1000) / 1000,
      };
      log(
        `item analysis computed as the worker's job does: first ${figures.first_ms} ms, then median of ${RUNS} ` +
          `${figures.median_ms} ms (${figures.median_cpu_ms} ms of this process's CPU); the page's view of the kept ` +
          `figures, as an API process answers it: median of 20 ${figures.view_median_ms} ms`,
      );
      log(`alpha ${figures.alpha}; ${figures.flagged} questions flagged, the ones the data reverses`);
      return figures;
    } finally {
      await handle.db.destroy();
      await target.drop();
    }
  },
};
