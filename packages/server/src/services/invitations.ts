import { DEFAULT_AREA_CODE } from '@examhall/contract';
import type { Db } from '../db/database.js';
import { ExamRepository } from '../repositories/exams.js';
import { InvitationRepository } from '../repositories/invitations.js';

/** A phone to invite; an empty calling code is the default one (a type, not an interface: jobs store it as JSON). */
export type PhoneToInvite = { area_code: string; phone: string };

/** A phone's invitation as `invite` answers it. */
export interface InvitedPhone {
  phone: string;
  area_code: string;
  anid: number;
  /** False when the phone was invited already. */
  created: boolean;
}

/** The phone with its calling code filled in (an empty one is the default). */
export function withAreaCode(p: PhoneToInvite): PhoneToInvite {
  return { area_code: p.area_code || DEFAULT_AREA_CODE, phone: p.phone };
}

/** What making invitations needs. */
export interface InvitationDeps {
  clock: () => number;
}

/**
 * The one place invitations are made: a few phones at a time (the editor's invite, the demo seed), many in a batch
 * (the bulk invitation job's steps), and a staff member's preview invitation. A phone invited already keeps its
 * invitation as it is (a revoked one stays revoked, its extra time unchanged). Each call runs on `db`, the caller's
 * transaction, so an invitation commits with what the caller records beside it (texts, audit, the job's cursor).
 */
export class InvitationService {
  constructor(private readonly deps: InvitationDeps) {}

  /** Invites phones one by one; answers each invitation once, in the order of the phones, and whether it is new. */
  async invite(
    db: Db,
    examId: number,
    phones: readonly PhoneToInvite[],
    opts: { extraMinutes?: number } = {},
  ): Promise<InvitedPhone[]> {
    const repo = new InvitationRepository(db);
    const exams = new ExamRepository(db);
    const now = this.deps.clock();
    const list: InvitedPhone[] = [];
    for (const p of phones.map(withAreaCode)) {
      const existing = (await exams.invitationFor(examId, p.area_code, p.phone))?.id;
      const anid =
        existing ??
        (await repo.create({
          exam_id: examId,
          area_code: p.area_code,
          phone: p.phone,
          extra_minutes: opts.extraMinutes ?? 0,
          created_at: now,
        }));
      if (!list.some((l) => l.anid === anid))
        list.push({ phone: p.phone, area_code: p.area_code, anid, created: existing === undefined });
    }
    return list;
  }

  /**
   * Invites many phones at once, a few statements for the lot: answers how many invitations are new and how many
   * phones had one already (a phone twice in `phones` counts once as new).
   */
  inviteMany(db: Db, examId: number, phones: readonly PhoneToInvite[]): Promise<{ created: number; existing: number }> {
    return new InvitationRepository(db).inviteMissing(examId, phones.map(withAreaCode), this.deps.clock());
  }

  /**
   * A staff member's preview invitation (`to` is their preview candidate), pointed at the preview version
   * `versionId`: made the first time, and after that started afresh (its earlier preview attempts go).
   */
  async preview(db: Db, examId: number, to: PhoneToInvite, versionId: number): Promise<number> {
    const repo = new InvitationRepository(db);
    const existing = (await new ExamRepository(db).invitationFor(examId, to.area_code, to.phone))?.id;
    if (existing === undefined)
      return repo.create({
        exam_id: examId,
        area_code: to.area_code,
        phone: to.phone,
        extra_minutes: 0,
        created_at: this.deps.clock(),
        preview: 1,
        version_id: versionId,
      });
    await repo.deletePreviewAttempts(existing);
    await repo.setVersion(existing, versionId);
    return existing;
  }
}
