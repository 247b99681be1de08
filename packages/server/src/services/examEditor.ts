import {
  type AuditAction,
  ExamDefinition,
  api,
  type CallDef,
  type EditorExamDetail,
  type EditorExamItem,
  type EditorExamListData,
  type ExamStatus,
  type ExamVersionView,
  type ExamVersionsData,
  type InviteData,
  type LiveChangeData,
  type PublishData,
} from '@examhall/contract';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';
import { fail } from '../errors.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { ExamRow, Span, TimingInvitation } from '../repositories/exams.js';
import { ExamVersionRepository, type VersionRow } from '../repositories/examVersions.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { ExamCatalog } from './catalog.js';
import { sanitizeRichText } from './richText.js';
import { attemptEnd, effectiveWindow } from './timing.js';
import type { InvitationService } from './invitations.js';
import type { InvitationTexts } from './invitationTexts.js';
import {
  collectSections,
  defaultDefinition,
  draftChanged,
  draftOf,
  examInReach,
  headFields,
  publishFrozen,
  type PublishBank,
} from './examVersions.js';

type Out<T extends CallDef, F extends 'query' | 'body'> = T[F] extends z.ZodType ? z.output<T[F]> : never;

/** The problem text of a validation failure, as `path: message` lines. */
function problems(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/**
 * The exam editor: exams with an editable draft, publishing immutable versions (fixed questions and draw
 * pools copied from the bank: examVersions.ts), what may change while an exam runs, copy, archive, and a minimal
 * invitation (made by invitations.ts; previews: examPreview.ts). Every call checks access by exam id and writes the audit log in its transaction.
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
      notifier: ProctorNotifier;
      /** Where invitations are made. */
      invitations: Pick<InvitationService, 'invite'>;
      /** Where their texts are queued. */
      texts: Pick<InvitationTexts, 'smsSettingsOf' | 'queueTexts'>;
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
  private exam(actor: StaffActor, call: CallDef, examId: number): Promise<ExamRow> {
    return examInReach(this.deps.access, this.repo, actor, call, examId);
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
      draft: draftOf(exam, this.clock()),
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
    return this.newDraftExam(actor, teamId, defaultDefinition(body.name, now), now, 'exam.create', {
      team_id: teamId,
    });
  }

  /**
   * Makes a draft exam of `teamId` holding `draft`, made at `now`, with its audit entry `action` (after: `after`
   * and the draft).
   */
  private newDraftExam(
    actor: StaffActor,
    teamId: number | null,
    draft: ExamDefinition,
    now: number,
    action: AuditAction,
    after: Record<string, unknown>,
  ): Promise<{ exam_id: number }> {
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
      await this.deps.audit.with(trx).record(actor, action, { kind: 'exam', id: exam.id }, null, { ...after, draft });
      return { exam_id: exam.id };
    });
  }

  /** POST /admin/exam/save-draft: replaces the draft at the revision the editor started from. */
  async saveDraft(actor: StaffActor, body: Out<typeof api.examEditorSaveDraft, 'body'>): Promise<EditorExamDetail> {
    const exam = await this.exam(actor, api.examEditorSaveDraft, body.exam_id);
    if (exam.status === 'archived') throw fail('exam_archived');
    const draft: ExamDefinition = { ...body.draft, description: sanitizeRichText(body.draft.description) };
    const before = draftOf(exam, this.clock());
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

  /** POST /admin/exam/publish: validates the draft and freezes it as version n+1; attempts keep theirs. */
  async publish(actor: StaffActor, body: Out<typeof api.examEditorPublish, 'body'>): Promise<PublishData> {
    const exam = await this.exam(actor, api.examEditorPublish, body.exam_id);
    if (exam.status === 'archived') throw fail('exam_archived');
    if (exam.revision !== body.revision) throw fail('revision_stale');
    const parsed = ExamDefinition.safeParse(exam.draft === null ? null : JSON.parse(exam.draft));
    if (!parsed.success) throw fail('exam_invalid', problems(parsed.error));
    const definition = parsed.data;
    const sections = await collectSections(this.deps.bank, exam, definition, true);
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
      const draft = draftOf(exam, this.clock());
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
    const draft = { ...draftOf(source, this.clock()), name: body.name ?? `${source.name} (copy)`.slice(0, 200) };
    return this.newDraftExam(actor, source.team_id, draft, this.clock(), 'exam.copy', { copied_from: source.id });
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

  /** POST /admin/exam/invite: invites a few phones (an invited phone keeps its invitation). */
  async invite(actor: StaffActor, body: Out<typeof api.examEditorInvite, 'body'>): Promise<InviteData> {
    const exam = await this.exam(actor, api.examEditorInvite, body.exam_id);
    if (exam.status === 'archived') throw fail('exam_archived');
    // Read before the transaction: SQLite has one connection, which the transaction holds.
    const template = (await this.deps.texts.smsSettingsOf(exam.id)).invitation_template;
    const run = this.db.transaction().execute(async (trx) => {
      const list = await this.deps.invitations.invite(trx, exam.id, body.phones, { extraMinutes: body.extra_minutes });
      const created = list.filter((l) => l.created);
      if (body.send_sms && created.length > 0) {
        await this.deps.texts.queueTexts(
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
