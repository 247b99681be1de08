/**
 * An exam's versions: the draft as the editor keeps it, its questions frozen from the bank (fixed ones and whole
 * draw pools, reference solutions checked), and a version stored and published. Used by the editor, the preview,
 * the demo seed and the results bench.
 */
import {
  ExamDefinition,
  ExamMode,
  QUESTION_REGISTRY,
  isDrawSection,
  sectionProblem,
  type CallDef,
  type QuestionKind,
  type Section,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { fail } from '../errors.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { ExamRow } from '../repositories/exams.js';
import { ExamVersionRepository, type VersionRow } from '../repositories/examVersions.js';
import type { AccessService, StaffActor } from './access.js';
import type { BankPoolService, PublishQuestion } from './bank/pools.js';
import type { BankReferenceCheckService } from './bank/referenceCheck.js';

/** What publishing needs of the bank (services/bank/): questions by id, a draw rule's pool, reference checks. */
export interface PublishBank {
  pools: Pick<BankPoolService, 'getForPublish' | 'poolFor'>;
  referenceCheck: Pick<BankReferenceCheckService, 'verifyReference'>;
}

/** A question frozen into a version: a copy, so later edits of the bank question change nothing here. */
export interface FrozenQuestion {
  bank_question_id: number | null;
  kind: QuestionKind;
  content: unknown;
  key: unknown;
  /** Its explanation and feedback per option (JSON as the bank stores it), or null. */
  explanation: string | null;
  score: number;
}

/** A section frozen into a version; a draw section holds its whole pool and how many each candidate draws. */
export interface FrozenSection {
  kind: Section;
  title: string;
  draw_count: number | null;
  questions: FrozenQuestion[];
}

/** A version to store: the exam, its definition and frozen sections, who published it and when. */
export interface FreezeInput {
  examId: number;
  definition: ExamDefinition;
  sections: FrozenSection[];
  publishedBy: number | null;
  preview: boolean;
  now: number;
}

/**
 * Stores a version: its row, its sections and copies of its questions, in the caller's transaction. The one
 * place a version is frozen (publish, preview, the demo seed).
 */
export async function freezeVersion(db: Db, input: FreezeInput): Promise<VersionRow> {
  const repo = new ExamVersionRepository(db);
  const version = await repo.create({
    exam_id: input.examId,
    number: await repo.nextNumber(input.examId, input.preview),
    definition: JSON.stringify(input.definition),
    published_at: input.now,
    published_by: input.publishedBy,
    preview: input.preview ? 1 : 0,
  });
  let order = 0;
  for (const [i, s] of input.sections.entries()) {
    const sectionId = await repo.createSection({
      exam_id: input.examId,
      version_id: version.id,
      kind: s.kind,
      title: s.title,
      order_num: i + 1,
      draw_count: s.draw_count,
    });
    await repo.createQuestions(
      s.questions.map((q) => ({
        exam_id: input.examId,
        version_id: version.id,
        section_id: sectionId,
        bank_question_id: q.bank_question_id,
        kind: q.kind,
        type: QUESTION_REGISTRY[q.kind].type,
        order_num: (order += 1),
        score: q.score,
        content: JSON.stringify(q.content),
        answer_key: JSON.stringify(q.key),
        explanation: q.explanation,
      })),
    );
  }
  return version;
}

/**
 * Publishes frozen sections as the exam's next version, in the caller's transaction: the version, the exams
 * row fields candidates read (name, description, mode, length, window, settings), the published version and
 * the positions to recommend. Answers the new version.
 */
export async function publishFrozen(db: Db, input: Omit<FreezeInput, 'preview'>): Promise<VersionRow> {
  const version = await freezeVersion(db, { ...input, preview: false });
  const repo = new ExamEditorRepository(db);
  await repo.update(input.examId, {
    ...headFields(input.definition),
    status: 'published',
    published_version_id: version.id,
    updated_at: input.now,
  });
  await repo.replacePositions(input.examId, input.definition.positions);
  return version;
}

/**
 * The definition a new exam starts with, one a first-time author can run at once: open from now (to the minute)
 * for a week, an hour long, the camera and microphone checks optional and the screen and phone checks off until
 * the author chooses them (the pledge is always signed).
 */
export function defaultDefinition(name: string, now: number): ExamDefinition {
  const start = Math.floor(now / 60_000) * 60_000;
  return ExamDefinition.parse({
    name,
    mode: ExamMode.exam,
    time_minutes: 60,
    start_at: start,
    end_at: start + 7 * 86_400_000,
    settings: NEW_EXAM_CHECKS,
    sections: [],
  });
}

/** The device checks of a new exam: camera and microphone optional, screen sharing and the phone off. */
export const NEW_EXAM_CHECKS = {
  is_skip_camera: 1,
  is_skip_microphone: 1,
  is_close_screen: 1,
  is_close_phone: 1,
} as const;

/**
 * The settings a preview runs on: the draft's, with every check it keeps skippable, so the author can look at each
 * check and go on to the exam without passing it.
 */
export function previewSettings(settings: ExamDefinition['settings']): ExamDefinition['settings'] {
  return { ...settings, is_skip_camera: 1, is_skip_microphone: 1, is_skip_screen: 1, is_skip_phone: 1 };
}

/** The exams row fields the candidate side reads, from a definition. */
export function headFields(d: ExamDefinition) {
  return {
    name: d.name,
    description: d.description,
    mode: d.mode,
    time_minutes: d.time_minutes,
    start_at: d.start_at,
    end_at: d.end_at,
    settings: JSON.stringify(d.settings),
    seb: d.seb.required ? JSON.stringify(d.seb) : null,
  };
}

/** A stored definition, or null when it no longer parses. */
export function parseDefinition(json: string | null): ExamDefinition | null {
  if (json === null) return null;
  try {
    const parsed = ExamDefinition.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * True when the draft differs from the published version. A live change (closing time, length) goes to the
 * exams row and the draft alike, so the version is compared as it runs now.
 */
export function draftChanged(exam: ExamRow, publishedDefinition: string | null): boolean {
  if (exam.published_version_id === null || publishedDefinition === null) return true;
  const published = parseDefinition(publishedDefinition);
  const draft = parseDefinition(exam.draft);
  if (!published || !draft) return true;
  const live = { ...published, end_at: exam.end_at, time_minutes: exam.time_minutes };
  return JSON.stringify(draft) !== JSON.stringify(live);
}

/** The draft of an exam: the stored one, or (when it no longer parses) one rebuilt from the exams row. */
export function draftOf(exam: ExamRow, now: number): ExamDefinition {
  const draft = parseDefinition(exam.draft);
  if (draft) return draft;
  const fallback = defaultDefinition(exam.name || 'exam', now);
  const window = exam.end_at > exam.start_at ? { start_at: exam.start_at, end_at: exam.end_at } : {};
  return ExamDefinition.safeParse({ ...fallback, ...window, mode: exam.mode }).data ?? fallback;
}

/**
 * Freezes a definition's questions: fixed ones and whole draw pools from the bank (the exam's team's only),
 * each parsed by the question registry and checked against its section. With `verify`, every programming
 * question's reference solution must pass every case (the judge runs it when its last check is missing or
 * stale), else the error names the question and the case.
 */
export async function collectSections(
  bank: PublishBank,
  exam: ExamRow,
  d: ExamDefinition,
  verify: boolean,
): Promise<FrozenSection[]> {
  if (d.sections.length === 0) throw fail('exam_invalid', 'sections: add at least one section');
  const fixedIds = d.sections.flatMap((s) => (isDrawSection(s) ? [] : s.items.map((i) => i.question_id)));
  const taken = new Set(fixedIds);
  const pools: number[][] = [];
  for (const [i, s] of d.sections.entries()) {
    if (!isDrawSection(s)) {
      pools.push([]);
      continue;
    }
    // A question already fixed, or in an earlier pool, is not drawn again: no attempt gets one twice.
    const pool = (
      await bank.pools.poolFor({
        team: exam.team_id,
        folder_ids: s.draw.folder_ids,
        tags: s.draw.tags,
        difficulty: s.draw.difficulty,
      })
    ).filter((id) => !taken.has(id));
    if (pool.length < s.draw.count) {
      throw fail(
        'draw_pool_too_small',
        `sections.${i}: draws ${s.draw.count} questions but its pool holds ${pool.length}`,
      );
    }
    for (const id of pool) taken.add(id);
    pools.push(pool);
  }
  const records = new Map((await bank.pools.getForPublish([...taken])).map((r) => [r.id, r]));
  const frozen = (i: number, section: Section, id: number, points: number): FrozenQuestion => {
    const r = records.get(id);
    // Another team's question is answered like a missing one.
    if (!r || r.teamId !== exam.team_id) throw fail('not_found', `no such question ${id}`);
    const misplaced = sectionProblem(r.kind, section);
    if (misplaced) throw fail('exam_invalid', `sections.${i}: question ${id}: ${misplaced}`);
    return {
      bank_question_id: id,
      kind: r.kind,
      content: r.body.content,
      key: r.body.key,
      explanation: r.explanation,
      score: points,
    };
  };
  const sections = d.sections.map((s, i): FrozenSection => {
    if (isDrawSection(s)) {
      return {
        kind: s.kind,
        title: s.title,
        draw_count: s.draw.count,
        questions: pools[i]!.map((id) => frozen(i, s.kind, id, s.draw.points)),
      };
    }
    return {
      kind: s.kind,
      title: s.title,
      draw_count: null,
      questions: s.items.map((item) => frozen(i, s.kind, item.question_id, item.points)),
    };
  });
  if (sections.every((s) => s.questions.length === 0))
    throw fail('exam_invalid', 'sections: the exam has no questions');
  if (verify) {
    for (const r of records.values()) if (r.kind === 'programming') await checkReference(bank, r);
  }
  return sections;
}

/** A programming question's reference must pass every case; the judge runs it when no current check says so. */
async function checkReference(bank: PublishBank, r: PublishQuestion): Promise<void> {
  if (r.body.kind !== 'programming' || !r.body.key.reference) {
    throw fail('reference_solution_failed', `question ${r.id}: add a reference solution the judge accepts`);
  }
  let problem: string | null = null;
  if (r.verification === 'ok') return;
  if (r.verification === 'failed') problem = r.problem ?? 'a case';
  else {
    const check = await bank.referenceCheck.verifyReference(r.id);
    if (check.ok) return;
    problem = check.problem ?? `with ${check.verdict}`;
  }
  throw fail('reference_solution_failed', `question ${r.id}: the reference solution fails ${problem}`);
}

/** The exam after the access check of `call` (404 for one out of reach). */
export async function examInReach(
  access: AccessService,
  repo: ExamEditorRepository,
  actor: StaffActor,
  call: CallDef,
  examId: number,
): Promise<ExamRow> {
  await access.requireFor(actor, call, examId);
  const exam = await repo.byId(examId);
  if (!exam) throw fail('not_found', `no such exam ${examId}`);
  return exam;
}
