/**
 * Finished attempts at a published exam, written straight to the database in bulk: what the results area's
 * computations (item analysis, rankings) read. `seedResultsExam` publishes an exam of bank questions the way the
 * demo seed does; `seedFinishedAttempts` adds candidates, invitations, finished attempts, their per-question rows
 * and their choice answers; `benchAttempts` makes many attempts of a plausible exam, deterministic by seed.
 */
import {
  DEFAULT_AREA_CODE,
  ExamDefinition,
  ExamMode,
  ExamPhase,
  QUESTION_REGISTRY,
  QuestionBody,
  letterOptions,
  type AnswerValue,
  type QuestionBodyInput,
  type Section,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { BankRepository } from '../repositories/bank.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import { ExamVersionRepository } from '../repositories/examVersions.js';
import { GradingRepository } from '../repositories/grading.js';
import { ResultsSeedRepository } from '../repositories/resultsSeed.js';
import { StaffRepository } from '../repositories/staff.js';
import { headFields, publishFrozen, type FrozenSection } from '../services/examVersions.js';
import { htmlToText } from '../services/richText.js';

/** One question of a seeded exam: its body, its points in the exam and its section. */
export interface SeedQuestion {
  body: QuestionBodyInput;
  score: number;
  section: Extract<Section, 'linetest' | 'major'>;
}

/** A published exam made by `seedResultsExam`. */
export interface SeededExam {
  examId: number;
  versionId: number;
  /** The version's questions (frozen copies), in the order given. */
  questionIds: number[];
  /** The bank questions they were copied from. */
  bankQuestionIds: number[];
  /** Points of each question in the exam. */
  scores: number[];
  /** Whether a grader scores each question. */
  manual: boolean[];
  /** The author of the bank questions. */
  authorId: number;
}

/**
 * One finished attempt: per question, in the exam's order, its final points (null: waiting for a grader;
 * undefined: the attempt was not given the question) and the candidate's answer (choice questions).
 */
export interface SeedAttempt {
  points: (number | null | undefined)[];
  answers?: (AnswerValue | null)[];
}

/** Publishes an exam of these questions, each first stored in the bank by `authorId` (or a new author). */
export async function seedResultsExam(
  db: Db,
  input: { questions: SeedQuestion[]; name?: string; authorId?: number; teamId?: number | null; now: number },
): Promise<SeededExam> {
  return db.transaction().execute(async (trx) => {
    const now = input.now;
    const authorId =
      input.authorId ??
      (
        await new StaffRepository(trx).create({
          area_code: DEFAULT_AREA_CODE,
          phone: `1990${String(now % 10_000_000).padStart(7, '0')}`,
          name: 'Results author',
          role: 'author',
          password_hash: '!',
          disabled: 1,
          created_at: now,
        })
      ).id;
    const bank = new BankRepository(trx);
    const sections: FrozenSection[] = [];
    const bankQuestionIds: number[] = [];
    for (const kind of ['linetest', 'major'] as const) {
      const questions: FrozenSection['questions'] = [];
      for (const q of input.questions.filter((x) => x.section === kind)) {
        const body = QuestionBody.parse(q.body);
        const stem = (body.content as { stem?: string }).stem ?? '';
        const id = await bank.create(
          {
            team_id: input.teamId ?? null,
            folder_id: null,
            kind: body.kind,
            type: QUESTION_REGISTRY[body.kind].type,
            stem_text: htmlToText(stem),
            content: JSON.stringify(body.content),
            answer_key: JSON.stringify(body.key),
            difficulty: 3,
            knowledge_points: '[]',
            default_score: q.score,
            author_id: authorId,
            editor_id: authorId,
            created_at: now,
            updated_at: now,
            verification: null,
          },
          [],
        );
        questions.push({
          bank_question_id: id,
          kind: body.kind,
          content: body.content,
          key: body.key,
          explanation: null,
          score: q.score,
        });
      }
      if (questions.length > 0) sections.push({ kind, title: '', draw_count: null, questions });
    }
    const definition = ExamDefinition.parse({
      name: input.name ?? 'Results exam',
      mode: ExamMode.exam,
      time_minutes: 90,
      start_at: now - 7 * 86_400_000,
      end_at: now - 86_400_000,
      settings: {},
      sections: sections.map((s) => ({
        kind: s.kind,
        title: s.title,
        items: s.questions.map((q) => ({ question_id: q.bank_question_id!, points: q.score })),
      })),
    });
    const exam = await new ExamEditorRepository(trx).create({
      ...headFields(definition),
      created_at: now,
      team_id: input.teamId ?? null,
      status: 'draft',
      draft: JSON.stringify(definition),
      revision: 0,
      updated_at: now,
      created_by: authorId,
    });
    const version = await publishFrozen(trx, { examId: exam.id, definition, sections, publishedBy: null, now });
    // The version's copies, matched to the input's order through the bank questions they came from.
    const frozen = await new ExamVersionRepository(trx).questionsOf(version.id);
    const copyOf = new Map(frozen.map((r) => [r.bank_question_id, r.id]));
    for (const s of sections) for (const q of s.questions) bankQuestionIds.push(q.bank_question_id!);
    // Sections were stored linetest first: put the ids back in the input's order.
    const order = [...input.questions.keys()].sort(
      (a, b) =>
        (input.questions[a]!.section === 'linetest' ? 0 : 1) - (input.questions[b]!.section === 'linetest' ? 0 : 1) ||
        a - b,
    );
    const bankInInputOrder: number[] = new Array<number>(input.questions.length);
    order.forEach((inputIndex, stored) => (bankInInputOrder[inputIndex] = bankQuestionIds[stored]!));
    return {
      examId: exam.id,
      versionId: version.id,
      questionIds: bankInInputOrder.map((b) => copyOf.get(b)!),
      bankQuestionIds: bankInInputOrder,
      scores: input.questions.map((q) => q.score),
      manual: input.questions.map((q) => QUESTION_REGISTRY[q.body.kind].scoring === 'grader'),
      authorId,
    };
  });
}

/** Rows of attempts written per transaction. */
const BATCH = 2_000;

/**
 * Adds finished attempts at the exam (candidates with phones from `phonePrefix`, their invitations, the attempts
 * with their final scores, one row per question given, the choice answers), `BATCH` attempts per transaction.
 * Answers the attempts' ids in order.
 */
export async function seedFinishedAttempts(
  db: Db,
  exam: SeededExam,
  attempts: Iterable<SeedAttempt>,
  opts: { now: number; phonePrefix?: string },
): Promise<number[]> {
  const prefix = opts.phonePrefix ?? '170';
  const ids: number[] = [];
  let batch: SeedAttempt[] = [];
  const flush = async () => {
    const taken = batch;
    batch = [];
    if (taken.length === 0) return;
    await db.transaction().execute(async (trx) => {
      const repo = new ResultsSeedRepository(trx);
      const base = ids.length;
      const phones = taken.map((_, i) => `${prefix}${String(base + i).padStart(11 - prefix.length, '0')}`);
      const candidates = await repo.candidates(
        phones.map((phone, i) => ({
          area_code: DEFAULT_AREA_CODE,
          phone,
          name: `Candidate ${base + i + 1}`,
          school: null,
          major: null,
          degree: null,
          graduation_year: null,
          created_at: opts.now,
          last_login_at: null,
        })),
      );
      const invitations = await repo.invitations(
        phones.map((phone) => ({
          exam_id: exam.examId,
          area_code: DEFAULT_AREA_CODE,
          phone,
          extra_minutes: 0,
          created_at: opts.now,
        })),
      );
      const finished = opts.now - 2 * 86_400_000;
      const attemptIds = await repo.attempts(
        taken.map((a, i) => {
          const given = a.points.flatMap((p, j) => (p === undefined ? [] : [j]));
          const score = given.reduce((n, j) => n + (a.points[j] ?? 0), 0);
          const max = given.reduce((n, j) => n + exam.scores[j]!, 0);
          return {
            exam_id: exam.examId,
            candidate_id: candidates[i]!,
            invitation_id: invitations[i]!,
            mode: ExamMode.exam,
            phase: ExamPhase.submit,
            created_at: finished - 3_600_000,
            started_at: finished - 3_600_000,
            end_at: finished,
            finished_at: finished,
            finish_reason: 'submit',
            score: Math.round(score * 100) / 100,
            max_score: max,
            version_id: exam.versionId,
            question_ids:
              given.length === a.points.length ? null : JSON.stringify(given.map((j) => exam.questionIds[j]!)),
          };
        }),
      );
      await repo.scores(
        taken.flatMap((a, i) =>
          a.points.flatMap((points, j) =>
            points === undefined
              ? []
              : [
                  {
                    attempt_id: attemptIds[i]!,
                    question_id: exam.questionIds[j]!,
                    exam_id: exam.examId,
                    source: exam.manual[j] ? 'manual' : 'auto',
                    points,
                    max: exam.scores[j]!,
                    updated_at: finished,
                  },
                ],
          ),
        ),
      );
      await repo.answers(
        taken.flatMap((a, i) =>
          (a.answers ?? []).flatMap((value, j) =>
            value === null || a.points[j] === undefined
              ? []
              : [
                  {
                    attempt_id: attemptIds[i]!,
                    question_id: exam.questionIds[j]!,
                    value: JSON.stringify(value),
                    version: 1,
                    seq: 1,
                    saved_at: finished - 60_000,
                  },
                ],
          ),
        ),
      );
      await new GradingRepository(trx).keepTotalsOf(attemptIds);
      ids.push(...attemptIds);
    });
  };
  for (const a of attempts) {
    batch.push(a);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return ids;
}

/** A small deterministic generator (mulberry32), so every run seeds the same attempts. */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box-Muller). */
function normal(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

/** The kinds of the benchmark's exam, repeated in this order: mostly choices, some true/false and Q&A. */
const BENCH_KINDS = ['single', 'single', 'multiple', 'single', 'true_false', 'single', 'multiple', 'qa'] as const;

/** A plausible campus test of `count` questions: single, multiple, true/false and Q&A, linetest then major. */
export function benchQuestions(count: number): SeedQuestion[] {
  return Array.from({ length: count }, (_, i): SeedQuestion => {
    const kind = BENCH_KINDS[i % BENCH_KINDS.length]!;
    const section = i < count * 0.75 ? 'linetest' : 'major';
    const stem = `<p>Question ${i + 1}: ${kind}</p>`;
    switch (kind) {
      case 'single':
        return {
          section,
          score: 2,
          body: { kind, content: { stem, options: letterOptions('w', 'x', 'y', 'z') }, key: { option: 'B' } },
        };
      case 'multiple':
        return {
          section,
          score: 4,
          body: {
            kind,
            content: { stem, options: letterOptions('w', 'x', 'y', 'z') },
            key: { options: ['A', 'C'] },
          },
        };
      case 'true_false':
        return {
          section,
          score: 1,
          body: { kind, content: { stem, options: letterOptions('True', 'False') }, key: { option: 'A' } },
        };
      case 'qa':
        return {
          section,
          score: 10,
          body: { kind, content: { stem }, key: { rubric: 'Points for each idea.', criteria: [] } },
        };
    }
  });
}

/**
 * `count` attempts at the questions of `benchQuestions`, deterministic by `seed`: each candidate has an
 * ability, each question a difficulty, and the chance of a right answer rises with ability, except on the
 * questions in `reversed` (a key mistake: the strong candidates lose them). Wrong picks spread over the
 * distractors; 3 % leave a choice question blank.
 */
export function* benchAttempts(
  questions: readonly SeedQuestion[],
  count: number,
  opts: { seed?: number; reversed?: readonly number[] } = {},
): Generator<SeedAttempt> {
  const next = random(opts.seed ?? 20_261_124);
  const difficulty = questions.map(() => normal(next) * 0.8);
  const reversed = new Set(opts.reversed ?? []);
  for (let n = 0; n < count; n++) {
    const ability = normal(next);
    const points: number[] = [];
    const answers: (AnswerValue | null)[] = [];
    questions.forEach((q, j) => {
      const slope = reversed.has(j) ? -1.2 : 1.4;
      const right = next() < 1 / (1 + Math.exp(-slope * (ability - difficulty[j]!)));
      const blank = next() < 0.03;
      const body = q.body;
      if (body.kind === 'single' || body.kind === 'true_false') {
        const key = (body.key as { option: string }).option;
        const ids = body.content.options.map((o) => o.id);
        const wrong = ids.filter((id) => id !== key);
        const option = right ? key : wrong[Math.floor(next() ** 1.5 * wrong.length)]!;
        answers.push(blank ? null : { kind: 'choice', option });
        points.push(!blank && right ? q.score : 0);
      } else if (body.kind === 'multiple') {
        const key = (body.key as { options: string[] }).options;
        const partial = !right && next() < 0.4;
        const options = right ? key : partial ? key.slice(0, 1) : ['B', key[0]!];
        answers.push(blank ? null : { kind: 'multi', options });
        points.push(blank ? 0 : right ? q.score : partial ? q.score / 2 : 0);
      } else {
        answers.push(null);
        const share = Math.max(
          0,
          Math.min(1, 1 / (1 + Math.exp(-1.1 * (ability - difficulty[j]!))) + normal(next) * 0.1),
        );
        points.push(Math.round(share * q.score * 2) / 2);
      }
    });
    yield { points, answers };
  }
}

/** What `seedBenchResults` made and how long it took. */
export interface SeededBench {
  exam: SeededExam;
  attemptIds: number[];
  /** Questions whose discrimination the data reverses. */
  reversed: number[];
  seedMs: number;
}

/**
 * The benchmark's data: an exam of `questions` questions (one in twenty with a key mistake) and `attempts`
 * finished attempts, every question given to every attempt.
 */
export async function seedBenchResults(
  db: Db,
  opts: { attempts: number; questions: number; now: number; seed?: number },
): Promise<SeededBench> {
  const t = performance.now();
  const questions = benchQuestions(opts.questions);
  const reversed = questions.flatMap((q, j) => (j % 20 === 9 && q.body.kind !== 'qa' ? [j] : []));
  const exam = await seedResultsExam(db, { questions, now: opts.now, name: `Results bench ${opts.attempts}` });
  const attemptIds = await seedFinishedAttempts(
    db,
    exam,
    benchAttempts(questions, opts.attempts, { reversed, ...(opts.seed !== undefined ? { seed: opts.seed } : {}) }),
    { now: opts.now },
  );
  return { exam, attemptIds, reversed, seedMs: performance.now() - t };
}
