/**
 * Previews: a staff member takes the exam's draft as a candidate would, on a preview version and a preview
 * candidate of their own that count nowhere, and sees the keys of what they were shown.
 */
import {
  api,
  type ExamDefinition,
  kindOfStored,
  type MyInfoBody,
  type PreviewData,
  type PreviewKeysData,
} from '@examhall/contract';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/uniqueViolation.js';
import { fail } from '../errors.js';
import { CandidateRepository } from '../repositories/candidates.js';
import { PREVIEW_AREA_CODE } from '../repositories/candidateDirectory.js';
import { ExamEditorRepository } from '../repositories/examEditor.js';
import type { AccessService, StaffActor } from './access.js';
import type { AuditService } from './audit.js';
import type { ExamCatalog, VersionBundle } from './catalog.js';
import {
  collectSections,
  draftOf,
  examInReach,
  freezeVersion,
  previewSettings,
  type PublishBank,
} from './examVersions.js';
import { bodyOf } from './storedQuestion.js';
import type { InvitationService } from './invitations.js';
import type { CandidateSessions } from './candidateSessions.js';
import type { TokenService } from './tokens.js';

/** How long a preview stays open to its candidate (and its token works). */
const PREVIEW_WINDOW_MS = 4 * 3_600_000;
export { PREVIEW_AREA_CODE };

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

/** What previews need. */
export interface ExamPreviewDeps {
  access: AccessService;
  audit: AuditService;
  bank: PublishBank;
  catalog: ExamCatalog;
  tokens: TokenService;
  /** The candidates kept per process: the preview candidate's profile is renewed each time. */
  sessions: Pick<CandidateSessions, 'changed'>;
  /** Where the preview invitation is made. */
  invitations: Pick<InvitationService, 'preview'>;
  clock: () => number;
}

export class ExamPreviewService {
  private readonly repo: ExamEditorRepository;

  constructor(
    private readonly db: Db,
    private readonly deps: ExamPreviewDeps,
  ) {
    this.repo = new ExamEditorRepository(db);
  }

  /**
   * POST /admin/exam/preview: freezes the draft as a preview version (reference solutions are not judged
   * for a look) open from now, points the actor's preview invitation at it (a fresh attempt: earlier preview
   * attempts go) and answers a candidate token of the actor's preview candidate. Previews count nowhere.
   */
  async preview(actor: StaffActor, examId: number): Promise<PreviewData> {
    const exam = await examInReach(this.deps.access, this.repo, actor, api.examEditorPreview, examId);
    const now = this.deps.clock();
    const draft = draftOf(exam, now);
    const sections = await collectSections(this.deps.bank, exam, draft, false);
    // Open from now for the preview's lifetime, whatever the draft's window; every check it keeps may be skipped.
    const definition: ExamDefinition = {
      ...draft,
      start_at: now - 60_000,
      end_at: now + PREVIEW_WINDOW_MS,
      settings: previewSettings(draft.settings),
    };
    const phone = `staff-${actor.id}`;
    const { versionId, anid, candidateId } = await this.db
      .transaction()
      .execute(async (trx) => {
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
        const anid = await this.deps.invitations.preview(
          trx,
          examId,
          { area_code: PREVIEW_AREA_CODE, phone },
          version.id,
        );
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
    this.deps.sessions.changed(candidateId);
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
    await examInReach(this.deps.access, this.repo, actor, api.examEditorPreviewKeys, examId);
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
}
