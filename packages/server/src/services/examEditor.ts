import {
  DEFAULT_AREA_CODE,
  ExamDefinition,
  ExamMode,
  QUESTION_REGISTRY,
  api,
  isDrawSection,
  kindOfStored,
  sectionProblem,
  type CallDef,
  type EditorExamDetail,
  type EditorExamItem,
  type EditorExamListData,
  type ExamStatus,
  type ExamVersionView,
  type ExamVersionsData,
  type InviteData,
  type LiveChangeData,
  type MyInfoBody,
  type PreviewData,
  type PreviewKeysData,
  type PublishData,
  type QuestionKind,
  type Section,
} from '@examhall/contract';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';
import { fail } from '../errors.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { CandidateRepository } from '../repositories/candidates.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { ExamRow, Span, TimingInvitation } from '../repositories/exams.js';
import { ExamVersionRepository, type VersionRow } from '../repositories/examVersions.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { BankService, PublishQuestion } from './bank.js';
import type { ExamCatalog, VersionBundle } from './catalog.js';
import { sanitizeRichText } from './richText.js';
import { attemptEnd, effectiveWindow } from './timing.js';
import { bodyOf } from './storedQuestion.js';
import type { InvitationService } from './invitations.js';
import type { TokenService } from './tokens.js';

type Out<T extends CallDef, F extends 'query' | 'body'> = T[F] extends z.ZodType ? z.output<T[F]> : never;

/** What publishing needs of the bank (services/bank.ts): questions by id, a draw rule's pool, reference checks. */
export type PublishBank = Pick<BankService, 'getForPublish' | 'poolFor' | 'verifyReference'>;

/** A question frozen into a version: a copy, so later edits of the bank question change nothing here. */
export interface FrozenQuestion {
  bank_question_id: number | null;
  kind: QuestionKind;
  content: unknown;
  key: unknown;
  score: number;
}

/** A section frozen into a version; a draw section holds its whole pool and how many each candidate draws. */
export interface FrozenSection {
  kind: Section;
  title: string;
  draw_count: number | null;
  questions: FrozenQuestion[];
}

/** How long a preview stays open to its candidate (and its token works). */
const PREVIEW_WINDOW_MS = 4 * 3_600_000;
/** The preview candidate's calling code: no real phone can have it (area codes are digits). */
export const PREVIEW_AREA_CODE = 'preview';

/** The profile of a staff member's preview candidate: complete, and saying it is a preview. */
export function previewProfile(actor: StaffActor, now: number) {
  return {
    name: `${actor.name} (预览 Preview)`.slice(0, 60),
    school: '预览 Preview',
    major: '预览 Preview',
    degree: 'bachelor',
    graduation_year: new Date(now).getUTCFullYear(),
  } satisfies MyInfoBody;
}

/**
 * Stores a version: its row, its sections and copies of its questions, in the caller's transaction. The one
 * place a version is frozen (publish, preview, the demo seed).
 */
export async function freezeVersion(
  db: Db,
  input: {
    examId: number;
    definition: ExamDefinition;
    sections: FrozenSection[];
    publishedBy: number | null;
    preview: boolean;
    now: number;
  },
): Promise<VersionRow> {
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
export async function publishFrozen(
  db: Db,
  input: {
    examId: number;
    definition: ExamDefinition;
    sections: FrozenSection[];
    publishedBy: number | null;
    now: number;
  },
): Promise<VersionRow> {
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

/** The definition a new exam starts with: tomorrow for a week, an hour long, every check on. */
export function defaultDefinition(name: string, now: number): ExamDefinition {
  const start = Math.ceil((now + 86_400_000) / 3_600_000) * 3_600_000;
  return ExamDefinition.parse({
    name,
    mode: ExamMode.exam,
    time_minutes: 60,
    start_at: start,
    end_at: start + 7 * 86_400_000,
    settings: {},
    sections: [],
  });
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
  };
}

/** A stored definition, or null when it no longer parses. */
function parseDefinition(json: string | null): ExamDefinition | null {
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
function draftChanged(exam: ExamRow, publishedDefinition: string | null): boolean {
  if (exam.published_version_id === null || publishedDefinition === null) return true;
  const published = parseDefinition(publishedDefinition);
  const draft = parseDefinition(exam.draft);
  if (!published || !draft) return true;
  const live = { ...published, end_at: exam.end_at, time_minutes: exam.time_minutes };
  return JSON.stringify(draft) !== JSON.stringify(live);
}

/** The problem text of a validation failure, as `path: message` lines. */
function problems(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/**
 * The exam editor: exams with an editable draft, publishing immutable versions (fixed questions and draw
 * pools copied from the bank), what may change while an exam runs, copy, archive, preview as a candidate,
 * and a minimal invitation. Every call checks access by exam id and writes the audit log in its transaction.
 */
export class ExamEditorService {
  private readonly repo: ExamEditorRepository;
  private readonly versionRepo: ExamVersionRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      access: AccessService;
      audit: AuditService;
      bank: PublishBank;
      catalog: ExamCatalog;
      tokens: TokenService;
      notifier: ProctorNotifier;
      invitations: InvitationService;
      clock: () => number;
    },
  ) {
    this.repo = new ExamEditorRepository(db);
    this.versionRepo = new ExamVersionRepository(db);
  }

  private get clock() {
    return this.deps.clock;
  }

  /** The exam after the access check of `call` (404 for one out of reach). */
  private async exam(actor: StaffActor, call: CallDef, examId: number): Promise<ExamRow> {
    await this.deps.access.requireFor(actor, call, examId);
    const exam = await this.repo.byId(examId);
    if (!exam) throw fail('not_found', `no such exam ${examId}`);
    return exam;
  }

  /** The draft of an exam: the stored one, or (when it no longer parses) one rebuilt from the exams row. */
  private draftOf(exam: ExamRow): ExamDefinition {
    const draft = parseDefinition(exam.draft);
    if (draft) return draft;
    const fallback = defaultDefinition(exam.name || 'exam', this.clock());
    const window = exam.end_at > exam.start_at ? { start_at: exam.start_at, end_at: exam.end_at } : {};
    return ExamDefinition.safeParse({ ...fallback, ...window, mode: exam.mode }).data ?? fallback;
  }

  // ---- reads ----

  /** GET /admin/exam/list: the exams the actor may see, one page, sorted and filtered on the server. */
  async list(actor: StaffActor, q: Out<typeof api.examEditorList, 'query'>): Promise<EditorExamListData> {
    const filter = {
      visible: this.deps.access.examFilter(actor),
      status: q.status,
      name: q.name || undefined,
      sort: q.sort,
      order: q.order,
      offset: (q.page - 1) * q.page_size,
      limit: q.page_size,
    };
    const [rows, total] = await Promise.all([this.repo.list(filter), this.repo.count(filter)]);
    const list = await Promise.all(
      rows.map(async (r): Promise<EditorExamItem> => {
        const published = r.published_version_id ? await this.versionRepo.byId(r.published_version_id) : undefined;
        return {
          id: r.id,
          name: r.name,
          status: r.status as ExamStatus,
          mode: r.mode as EditorExamItem['mode'],
          start_at: r.start_at,
          end_at: r.end_at,
          published_version: r.published_number,
          draft_changed: draftChanged(r, published?.definition ?? null),
          team_id: r.team_id,
          invited: r.invited,
          updated_at: r.updated_at,
        };
      }),
    );
    return { list, total };
  }

  /** A version as the console shows it. */
  private async versionView(row: VersionRow & { attempts?: number }): Promise<ExamVersionView> {
    const version = await this.deps.catalog.version(row.id);
    const sections = version?.sections ?? [];
    return {
      id: row.id,
      number: row.number,
      published_at: row.published_at,
      published_by: row.published_by,
      preview: row.preview === 1,
      questions: version?.byId.size ?? 0,
      per_candidate: sections.reduce((n, s) => n + (s.draw_count ?? s.question_ids.length), 0),
      attempts: row.attempts ?? 0,
    };
  }

  private async detailOf(exam: ExamRow): Promise<EditorExamDetail> {
    const versions = await this.versionRepo.list(exam.id, false);
    const published = versions.find((v) => v.id === exam.published_version_id);
    return {
      id: exam.id,
      status: exam.status as ExamStatus,
      team_id: exam.team_id,
      draft: this.draftOf(exam),
      revision: exam.revision,
      published_version_id: exam.published_version_id,
      draft_changed: draftChanged(exam, published?.definition ?? null),
      live: exam.published_version_id ? { end_at: exam.end_at, time_minutes: exam.time_minutes } : null,
      versions: await Promise.all(versions.map((v) => this.versionView(v))),
      created_by: exam.created_by,
      updated_at: exam.updated_at,
    };
  }

  /** GET /admin/exam/detail. */
  async detail(actor: StaffActor, examId: number): Promise<EditorExamDetail> {
    return this.detailOf(await this.exam(actor, api.examEditorDetail, examId));
  }

  /** GET /admin/exam/versions. */
  async versions(actor: StaffActor, examId: number): Promise<ExamVersionsData> {
    await this.exam(actor, api.examEditorVersions, examId);
    const rows = await this.versionRepo.list(examId, false);
    return { list: await Promise.all(rows.map((v) => this.versionView(v))) };
  }

  // ---- changes ----

  /** POST /admin/exam/create: an exam of the actor's team (an admin may name one) with a default draft. */
  async create(actor: StaffActor, body: Out<typeof api.examEditorCreate, 'body'>): Promise<{ exam_id: number }> {
    if (!this.deps.access.can(actor, 'exam.manage')) throw fail('forbidden');
    let teamId: number | null;
    if (actor.role === 'admin') {
      teamId = body.team_id ?? null;
      if (teamId !== null) await this.deps.access.require(actor, 'exam.manage', 'team', teamId);
    } else {
      if (actor.teamId === null) throw fail('forbidden', 'you belong to no team, so you cannot create exams');
      if (body.team_id != null && body.team_id !== actor.teamId)
        throw fail('not_found', `no such team ${body.team_id}`);
      teamId = actor.teamId;
    }
    const now = this.clock();
    const draft = defaultDefinition(body.name, now);
    return this.db.transaction().execute(async (trx) => {
      const exam = await new ExamEditorRepository(trx).create({
        ...headFields(draft),
        created_at: now,
        team_id: teamId,
        status: 'draft',
        draft: JSON.stringify(draft),
        revision: 0,
        updated_at: now,
        created_by: actor.id,
      });
      await this.deps.audit
        .with(trx)
        .record(actor, 'exam.create', { kind: 'exam', id: exam.id }, null, { team_id: teamId, draft });
      return { exam_id: exam.id };
    });
  }

  /** POST /admin/exam/save-draft: replaces the draft at the revision the editor started from. */
  async saveDraft(actor: StaffActor, body: Out<typeof api.examEditorSaveDraft, 'body'>): Promise<EditorExamDetail> {
    const exam = await this.exam(actor, api.examEditorSaveDraft, body.exam_id);
    if (exam.status === 'archived') throw fail('exam_archived');
    const draft: ExamDefinition = { ...body.draft, description: sanitizeRichText(body.draft.description) };
    const before = this.draftOf(exam);
    const now = this.clock();
    await this.db.transaction().execute(async (trx) => {
      // An exam never published has no candidates: its row follows the draft, so the list shows it.
      const head = exam.published_version_id === null ? headFields(draft) : {};
      const saved = await new ExamEditorRepository(trx).updateAtRevision(exam.id, body.revision, {
        ...head,
        draft: JSON.stringify(draft),
        updated_at: now,
      });
      if (!saved) throw fail('revision_stale');
      await this.deps.audit.with(trx).record(actor, 'exam.save_draft', { kind: 'exam', id: exam.id }, before, draft);
    });
    return this.detailOf((await this.repo.byId(exam.id))!);
  }

  /**
   * Freezes a definition's questions: fixed ones and whole draw pools from the bank (the exam's team's only),
   * each parsed by the question registry and checked against its section. With `verify`, every programming
   * question's reference solution must pass every case (the judge runs it when its last check is missing or
   * stale), else the error names the question and the case.
   */
  private async collect(exam: ExamRow, d: ExamDefinition, verify: boolean): Promise<FrozenSection[]> {
    const bank = this.deps.bank;
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
        await bank.poolFor({
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
    const records = new Map((await bank.getForPublish([...taken])).map((r) => [r.id, r]));
    const frozen = (i: number, section: Section, id: number, points: number): FrozenQuestion => {
      const r = records.get(id);
      // Another team's question is answered like a missing one.
      if (!r || r.teamId !== exam.team_id) throw fail('not_found', `no such question ${id}`);
      const misplaced = sectionProblem(r.kind, section);
      if (misplaced) throw fail('exam_invalid', `sections.${i}: question ${id}: ${misplaced}`);
      return { bank_question_id: id, kind: r.kind, content: r.body.content, key: r.body.key, score: points };
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
      for (const r of records.values()) if (r.kind === 'programming') await this.checkReference(r);
    }
    return sections;
  }

  /** A programming question's reference must pass every case; the judge runs it when no current check says so. */
  private async checkReference(r: PublishQuestion): Promise<void> {
    if (r.body.kind !== 'programming' || !r.body.key.reference) {
      throw fail('reference_solution_failed', `question ${r.id}: add a reference solution the judge accepts`);
    }
    let problem: string | null = null;
    if (r.verification === 'ok') return;
    if (r.verification === 'failed') problem = r.problem ?? 'a case';
    else {
      const check = await this.deps.bank.verifyReference(r.id);
      if (check.ok) return;
      problem = check.problem ?? `with ${check.verdict}`;
    }
    throw fail('reference_solution_failed', `question ${r.id}: the reference solution fails ${problem}`);
  }

  /** POST /admin/exam/publish: validates the draft and freezes it as version n+1; attempts keep theirs. */
  async publish(actor: StaffActor, body: Out<typeof api.examEditorPublish, 'body'>): Promise<PublishData> {
    const exam = await this.exam(actor, api.examEditorPublish, body.exam_id);
    if (exam.status === 'archived') throw fail('exam_archived');
    if (exam.revision !== body.revision) throw fail('revision_stale');
    const parsed = ExamDefinition.safeParse(exam.draft === null ? null : JSON.parse(exam.draft));
    if (!parsed.success) throw fail('exam_invalid', problems(parsed.error));
    const definition = parsed.data;
    const sections = await this.collect(exam, definition, true);
    const now = this.clock();
    const version = await this.db
      .transaction()
      .execute(async (trx) => {
        const repo = new ExamEditorRepository(trx);
        // The draft judged above is the one frozen: a save in between makes this a conflict.
        const current = await repo.byId(exam.id);
        if (!current || current.revision !== body.revision) throw fail('revision_stale');
        const frozen = await publishFrozen(trx, { examId: exam.id, definition, sections, publishedBy: actor.id, now });
        await this.deps.audit
          .with(trx)
          .record(
            actor,
            'exam.publish',
            { kind: 'exam', id: exam.id },
            { published_version_id: exam.published_version_id, status: exam.status },
            { published_version_id: frozen.id, number: frozen.number, status: 'published', definition },
          );
        return frozen;
      })
      .catch((err: unknown) => {
        if (isUniqueViolation(err)) throw fail('revision_stale', 'another publish of this exam came first');
        throw err;
      });
    this.deps.catalog.forget(exam.id);
    return { version: await this.versionView({ ...version, attempts: 0 }) };
  }

  /**
   * POST /admin/exam/live-change: closing time, length and extra time of a published exam, applied to the
   * exams row, the draft, and the end of every running attempt concerned at once.
   */
  async liveChange(actor: StaffActor, body: Out<typeof api.examEditorLiveChange, 'body'>): Promise<LiveChangeData> {
    const exam = await this.exam(actor, api.examEditorLiveChange, body.exam_id);
    if (exam.published_version_id === null) throw fail('exam_not_published');
    const endAt = body.end_at ?? exam.end_at;
    const minutes = body.time_minutes ?? exam.time_minutes;
    if (endAt <= exam.start_at) throw fail('validation_error', 'end_at: closes before it opens');
    const now = this.clock();
    // The same rule as entering the exam, on the changed window and length.
    const window = { start_at: exam.start_at, end_at: endAt };
    const endOf = (startedAt: number, inv: TimingInvitation, slot: Span | null) =>
      attemptEnd(exam.mode, minutes, inv, effectiveWindow(window, inv, slot), startedAt);
    const windowChanged = endAt !== exam.end_at || minutes !== exam.time_minutes;
    const result = await this.db.transaction().execute(async (trx) => {
      const repo = new ExamEditorRepository(trx);
      const draft = this.draftOf(exam);
      const nextDraft = { ...draft, end_at: endAt, time_minutes: minutes };
      if (windowChanged) {
        await repo.update(exam.id, {
          end_at: endAt,
          time_minutes: minutes,
          draft: JSON.stringify(ExamDefinition.parse(nextDraft)),
          revision: exam.revision + 1,
          updated_at: now,
        });
      }
      const extraIds = body.extra?.length ? await repo.setExtraMinutes(exam.id, body.extra) : [];
      if (body.extra && extraIds.length !== body.extra.length) {
        const missing = body.extra.find((e) => !extraIds.includes(e.anid))!;
        throw fail('not_found', `extra: no such invitation ${missing.anid} of this exam`);
      }
      const moved = await repo.moveRunningEnds(exam.id, endOf, windowChanged ? undefined : extraIds);
      await this.deps.audit
        .with(trx)
        .record(
          actor,
          'exam.live_change',
          { kind: 'exam', id: exam.id },
          { end_at: exam.end_at, time_minutes: exam.time_minutes },
          { end_at: endAt, time_minutes: minutes, extra: body.extra ?? [], attempts_moved: moved },
        );
      return moved;
    });
    this.deps.catalog.forget(exam.id);
    for (const id of await this.repo.runningAttemptIds(exam.id))
      this.deps.notifier.announce({ type: 'attempt', attemptId: id });
    return { end_at: endAt, time_minutes: minutes, attempts_moved: result };
  }

  /** POST /admin/exam/copy: a new exam (same team) whose draft copies this one's. */
  async copy(actor: StaffActor, body: Out<typeof api.examEditorCopy, 'body'>): Promise<{ exam_id: number }> {
    const source = await this.exam(actor, api.examEditorCopy, body.exam_id);
    const draft = { ...this.draftOf(source), name: body.name ?? `${source.name} (copy)`.slice(0, 200) };
    const now = this.clock();
    return this.db.transaction().execute(async (trx) => {
      const exam = await new ExamEditorRepository(trx).create({
        ...headFields(draft),
        created_at: now,
        team_id: source.team_id,
        status: 'draft',
        draft: JSON.stringify(draft),
        revision: 0,
        updated_at: now,
        created_by: actor.id,
      });
      await this.deps.audit
        .with(trx)
        .record(actor, 'exam.copy', { kind: 'exam', id: exam.id }, null, { copied_from: source.id, draft });
      return { exam_id: exam.id };
    });
  }

  /** POST /admin/exam/archive: archives (or brings back) an exam; candidates' attempts stay as they are. */
  async archive(actor: StaffActor, body: Out<typeof api.examEditorArchive, 'body'>): Promise<Record<string, never>> {
    const exam = await this.exam(actor, api.examEditorArchive, body.exam_id);
    const status: ExamStatus = body.archived ? 'archived' : exam.published_version_id !== null ? 'published' : 'draft';
    if (status === exam.status) return {};
    await this.db.transaction().execute(async (trx) => {
      await new ExamEditorRepository(trx).update(exam.id, { status, updated_at: this.clock() });
      await this.deps.audit.with(trx).record(
        actor,
        body.archived ? 'exam.archive' : 'exam.unarchive',
        { kind: 'exam', id: exam.id },
        {
          status: exam.status,
        },
        { status },
      );
    });
    return {};
  }

  /**
   * POST /admin/exam/preview: freezes the draft as a preview version (reference solutions are not judged
   * for a look) open from now, points the actor's preview invitation at it (a fresh attempt: earlier preview
   * attempts go) and answers a candidate token of the actor's preview candidate. Previews count nowhere.
   */
  async preview(actor: StaffActor, examId: number): Promise<PreviewData> {
    const exam = await this.exam(actor, api.examEditorPreview, examId);
    const draft = this.draftOf(exam);
    const sections = await this.collect(exam, draft, false);
    const now = this.clock();
    // Open from now for the preview's lifetime, whatever the draft's window.
    const definition: ExamDefinition = { ...draft, start_at: now - 60_000, end_at: now + PREVIEW_WINDOW_MS };
    const phone = `staff-${actor.id}`;
    const { versionId, anid, candidateId } = await this.db
      .transaction()
      .execute(async (trx) => {
        const repo = new ExamEditorRepository(trx);
        const version = await freezeVersion(trx, {
          examId,
          definition,
          sections,
          publishedBy: actor.id,
          preview: true,
          now,
        });
        const candidates = new CandidateRepository(trx);
        const candidate =
          (await candidates.findByPhone(PREVIEW_AREA_CODE, phone)) ??
          (await candidates.create(PREVIEW_AREA_CODE, phone, now));
        // A complete profile, so the candidate pages go straight to the exam instead of the profile form
        // (renewed each time: it carries the staff member's current name).
        await candidates.saveProfile(candidate.id, previewProfile(actor, now));
        const existing = await repo.invitationFor(examId, PREVIEW_AREA_CODE, phone);
        let anid: number;
        if (existing) {
          anid = existing.id;
          await repo.deletePreviewAttempts(anid);
          await repo.setInvitationVersion(anid, version.id);
        } else {
          anid = await repo.invite({
            exam_id: examId,
            area_code: PREVIEW_AREA_CODE,
            phone,
            extra_minutes: 0,
            created_at: now,
            preview: 1,
            version_id: version.id,
          });
        }
        await this.deps.audit.with(trx).record(actor, 'exam.preview', { kind: 'exam', id: examId }, null, {
          version_id: version.id,
          number: version.number,
        });
        return { versionId: version.id, anid, candidateId: candidate.id };
      })
      .catch((err: unknown) => {
        // Two previews of one exam at once (a double click): the unique constraints let one through.
        throw isUniqueViolation(err) ? fail('conflict', 'a preview of this exam was being made at the same time') : err;
      });
    const { token, expiresAt } = await this.deps.tokens.issue('candidate', candidateId, PREVIEW_WINDOW_MS);
    return {
      token,
      candidate_id: candidateId,
      expires_at: expiresAt,
      exam_id: examId,
      anid,
      version_id: versionId,
    };
  }

  /** GET /admin/exam/preview-keys: the keys of a preview version's questions, by the ids candidate pages show. */
  async previewKeys(actor: StaffActor, examId: number, versionId: number): Promise<PreviewKeysData> {
    await this.exam(actor, api.examEditorPreviewKeys, examId);
    const version: VersionBundle | null = await this.deps.catalog.version(versionId);
    if (!version || version.exam_id !== examId || !version.preview)
      throw fail('not_found', `no such preview version ${versionId} of exam ${examId}`);
    return {
      list: [...version.byId.values()].map((q) => ({
        subject_id: q.id,
        bank_question_id: q.bank_question_id,
        kind: q.kind ?? kindOfStored(q.type, q.section) ?? String(q.type),
        score: q.score,
        key: bodyOf(q).key,
      })),
    };
  }

  /** POST /admin/exam/invite: invites a few phones (an invited phone keeps its invitation). */
  async invite(actor: StaffActor, body: Out<typeof api.examEditorInvite, 'body'>): Promise<InviteData> {
    const exam = await this.exam(actor, api.examEditorInvite, body.exam_id);
    if (exam.status === 'archived') throw fail('exam_archived');
    const now = this.clock();
    // Read before the transaction: SQLite has one connection, which the transaction holds.
    const template = (await this.deps.invitations.smsSettingsOf(exam.id)).invitation_template;
    const run = this.db.transaction().execute(async (trx) => {
      const repo = new ExamEditorRepository(trx);
      const list: InviteData['list'] = [];
      for (const p of body.phones) {
        const area = p.area_code || DEFAULT_AREA_CODE;
        const existing = await repo.invitationFor(exam.id, area, p.phone);
        const anid =
          existing?.id ??
          (await repo.invite({
            exam_id: exam.id,
            area_code: area,
            phone: p.phone,
            extra_minutes: body.extra_minutes,
            created_at: now,
          }));
        if (!list.some((l) => l.anid === anid))
          list.push({ phone: p.phone, area_code: area, anid, created: !existing });
      }
      const created = list.filter((l) => l.created);
      if (body.send_sms && created.length > 0) {
        await this.deps.invitations.queueTexts(
          trx,
          { exam, template, purpose: 'invitation', dedupeKey: 'invitation', staffId: actor.id },
          created.map((l) => ({
            id: l.anid,
            exam_id: exam.id,
            area_code: l.area_code,
            phone: l.phone,
            name: null,
            revoked_at: null,
            window_start: null,
            window_end: null,
            slot_start: null,
            slot_end: null,
          })),
        );
      }
      await this.deps.audit.with(trx).record(actor, 'exam.invite', { kind: 'exam', id: exam.id }, null, {
        invited: created.map((l) => ({ anid: l.anid, phone: l.phone, area_code: l.area_code })),
        extra_minutes: body.extra_minutes,
        send_sms: body.send_sms,
      });
      return { list };
    });
    // Two invitations of one phone at once: the unique constraint lets one through.
    return run.catch((err: unknown) => {
      throw isUniqueViolation(err) ? fail('conflict', 'the phone was being invited at the same time; try again') : err;
    });
  }
}
