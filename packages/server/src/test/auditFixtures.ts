/**
 * Changes every mutating staff call makes and the audit entry each must leave, for routes/audit.test.ts. A new
 * staff call that is not a GET adds its entry here; the audit test fails, naming the call, until it does.
 */
import type { CallName } from '@examhall/contract';
import { randomUUID } from 'node:crypto';
import { strToU8, zipSync } from 'fflate';
import { generateSync } from 'otplib';
import { expect } from 'vitest';
import { beepsWav } from '../storage/wav.js';
import { waitForJob } from './jobs.js';
import {
  BANK_SINGLE,
  type Caller,
  type CallInput,
  type CallWorld,
  freshPhone,
  inject,
  newTeamExam,
} from './callWorld.js';
import {
  answerToGrade,
  answerToReconcile,
  apiTokenId,
  BANK_PROGRAMMING,
  bankFolder,
  bankQuestion,
  candidateFile,
  failedDelivery,
  finishedAttempt,
  giftFile,
  heldJob,
  newSlot,
  onePixelPng,
  programmingQuestion,
  qaQuestion,
  secondFactorOn,
  similarPair,
  staffSession,
  teamCandidate,
  totpOf,
  webhookEndpoint,
} from './teamResources.js';

/** What a change's audit entry must say: its action and object, and what before and after contain. */
export interface AuditExpectation {
  action: string;
  kind: string;
  /** The object's id (null for an object without one, e.g. an uploaded file), or how to read it from the call's answer (a create). */
  id: number | null | ((data: Record<string, unknown>) => number);
  /** null: none (a create); else fields the snapshot has (toMatchObject). */
  before: Record<string, unknown> | null;
  /** null: none (a delete); else fields the snapshot has. */
  after: Record<string, unknown> | null;
}

/** One change to make and the entry it must leave. */
export interface AuditCase {
  /** Who makes it (admin unless said). */
  as?: Caller;
  input: CallInput;
  expect: AuditExpectation;
  /** Milliseconds the call may take (e.g. the first face check loads its models). */
  timeoutMs?: number;
  /** Waits for what the call started to end (a job it queued), before the entries are counted. */
  settle?: (data: Record<string, unknown>) => Promise<void>;
}

/** Builds a change and its expected entry. */
export type AuditFixture = (w: CallWorld) => AuditCase | Promise<AuditCase>;

/** Changes every mutating staff call makes (routes/audit.test.ts). */
export const AUDIT_FIXTURES: Partial<Record<CallName, AuditFixture>> = {
  jobCancel: async (w) => ({
    as: 'authorA',
    input: { body: { job_id: await heldJob(w) } },
    expect: {
      action: 'job.cancel',
      kind: 'job',
      id: (data) => data.id as number,
      before: { state: 'running', kind: 'bank_import' },
      after: { state: 'running', cancel_requested: true },
    },
  }),
  // A change of one's own account: proctor X's second factor.
  staffTotpEnrol: async (w) => {
    await totpOf(w, 'none');
    const id = w.ids.proctorX;
    return {
      as: 'proctorX',
      input: {},
      expect: { action: 'staff.totp_enrol', kind: 'staff', id, before: { id }, after: { id, totp_enabled: false } },
    };
  },
  staffTotpConfirm: async (w) => {
    const secret = await totpOf(w, 'enrolled');
    const id = w.ids.proctorX;
    return {
      as: 'proctorX',
      input: { body: { code: generateSync({ secret, epoch: Math.floor(w.t.now() / 1000) }) } },
      expect: {
        action: 'staff.totp_enable',
        kind: 'staff',
        id,
        before: { id, totp_enabled: false },
        after: { id, totp_enabled: true },
      },
    };
  },
  staffTotpDisable: async (w) => {
    await totpOf(w, 'on');
    const id = w.ids.proctorX;
    return {
      as: 'proctorX',
      input: { body: { password: w.password } },
      expect: {
        action: 'staff.totp_disable',
        kind: 'staff',
        id,
        before: { id, totp_enabled: true },
        after: { id, totp_enabled: false },
      },
    };
  },
  staffCreate: (w) => {
    const phone = freshPhone('132');
    return {
      input: { body: { phone, area_code: '86', name: 'New grader', role: 'grader', password: w.password } },
      expect: {
        action: 'staff.create',
        kind: 'staff',
        id: (d) => d.id as number,
        before: null,
        after: { phone, name: 'New grader', role: 'grader', team_id: null, disabled: false },
      },
    };
  },
  // Proctor X ends another session of its own (a browser elsewhere).
  staffSessionEnd: async (w) => {
    const session = await staffSession(w, w.ids.proctorX);
    const id = w.ids.proctorX;
    return {
      as: 'proctorX',
      input: { body: { session } },
      expect: { action: 'staff.session_end', kind: 'staff', id, before: { session, method: 'local' }, after: null },
    };
  },
  staffSessionEndOf: async (w) => {
    const session = await staffSession(w, w.staffId);
    return {
      input: { body: { id: w.staffId, session } },
      expect: {
        action: 'staff.session_end',
        kind: 'staff',
        id: w.staffId,
        before: { session, method: 'local' },
        after: null,
      },
    };
  },
  staffUpdate: async (w) => {
    const id = await w.newStaff('grader', w.teamId);
    return {
      input: { body: { id, name: 'Proctor now', role: 'proctor', team_id: w.otherTeamId, disabled: true } },
      expect: {
        action: 'staff.update',
        kind: 'staff',
        id,
        before: { id, role: 'grader', team_id: w.teamId, disabled: false },
        after: { id, name: 'Proctor now', role: 'proctor', team_id: w.otherTeamId, disabled: true },
      },
    };
  },
  staffResetTotp: async (w) => {
    const id = await w.newStaff('grader', w.teamId);
    await secondFactorOn(w, id);
    return {
      input: { body: { id } },
      expect: {
        action: 'staff.totp_reset',
        kind: 'staff',
        id,
        before: { id, totp_enabled: true },
        after: { id, totp_enabled: false },
      },
    };
  },
  staffResetPassword: (w) => ({
    input: { body: { id: w.staffId, password: 'another-password' } },
    expect: {
      action: 'staff.reset_password',
      kind: 'staff',
      id: w.staffId,
      before: { id: w.staffId },
      after: { id: w.staffId },
    },
  }),
  proctorWarn: (w) => ({
    input: { body: { attempt_id: w.attemptId, text: 'Eyes on your screen.' } },
    expect: {
      action: 'proctor.warn',
      kind: 'attempt',
      id: w.attemptId,
      before: null,
      after: { text: 'Eyes on your screen.' },
    },
  }),
  proctorEnd: async (w) => {
    const { attemptId } = await w.newAttempt();
    return {
      input: { body: { attempt_id: attemptId, reason: 'Another person in the room' } },
      expect: {
        action: 'proctor.end',
        kind: 'attempt',
        id: attemptId,
        before: { phase: 2, finish_reason: null },
        after: { phase: 3, finish_reason: 'proctor', finish_note: 'Another person in the room' },
      },
    };
  },
  proctorDecide: async (w) => {
    const recordId = await w.newRecord(w.candidateToken);
    return {
      input: {
        body: { record_id: recordId, decision: 'confirmed', note: 'seen on camera', candidate_note: 'stay in view' },
      },
      expect: {
        action: 'proctor.decide',
        kind: 'record',
        id: recordId,
        before: { decision: null },
        after: { decision: 'confirmed', decision_note: 'seen on camera', candidate_note: 'stay in view' },
      },
    };
  },
  proctorIdPhoto: async (w) => {
    const { facePhoto } = await import('../bench/facePhotos.js');
    const { anid, phone } = await w.newAttempt();
    return {
      input: {
        body: { exam_id: String(w.examId), phone },
        file: { field: 'id_photo', name: 'id.jpg', type: 'image/jpeg', data: facePhoto('a') },
      },
      expect: {
        action: 'proctor.id_photo',
        kind: 'invitation',
        id: anid,
        before: { id_photo_key: null, id_photo_sha256: null },
        after: { id_photo_key: expect.any(String), id_photo_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      },
      timeoutMs: 120_000,
    };
  },
  ssoGroupCreate: (w) => {
    const group = `group-${randomUUID().slice(0, 8)}`;
    return {
      input: { body: { group, team_id: w.teamId, role: 'author' } },
      expect: {
        action: 'sso.group.create',
        kind: 'sso_group',
        id: (d) => d.id as number,
        before: null,
        after: { group, team_id: w.teamId, role: 'author' },
      },
    };
  },
  ssoGroupUpdate: async (w) => {
    const group = `group-${randomUUID().slice(0, 8)}`;
    const made = await inject(w.t, w.tokens.admin, 'POST', '/admin/sso/groups', {
      group,
      team_id: w.teamId,
      role: 'author',
    });
    const id = made.id as number;
    return {
      input: { body: { id, role: 'grader' } },
      expect: {
        action: 'sso.group.update',
        kind: 'sso_group',
        id,
        before: { group, role: 'author' },
        after: { group, role: 'grader' },
      },
    };
  },
  ssoGroupDelete: async (w) => {
    const group = `group-${randomUUID().slice(0, 8)}`;
    const made = await inject(w.t, w.tokens.admin, 'POST', '/admin/sso/groups', {
      group,
      team_id: w.teamId,
      role: 'proctor',
    });
    const id = made.id as number;
    return {
      input: { body: { id } },
      expect: { action: 'sso.group.delete', kind: 'sso_group', id, before: { group, role: 'proctor' }, after: null },
    };
  },
  // Requiring single sign-on needs a provider, which this world has none of: the policy is set to offered only.
  ssoSettingsUpdate: () => ({
    input: { body: { required: false, break_glass: [] } },
    expect: {
      action: 'sso.settings',
      kind: 'sso_settings',
      id: null,
      before: {},
      after: { required: false, break_glass: [] },
    },
  }),
  teamCreate: () => {
    const name = `Team ${randomUUID().slice(0, 8)}`;
    return {
      input: { body: { name } },
      expect: { action: 'team.create', kind: 'team', id: (d) => d.id as number, before: null, after: { name } },
    };
  },
  teamUpdate: async (w) => {
    const [before] = await w.t.db.handle.db.selectFrom('teams').select('name').where('id', '=', w.teamId).execute();
    const name = `Team A ${randomUUID().slice(0, 8)}`;
    return {
      input: { body: { id: w.teamId, name } },
      expect: {
        action: 'team.update',
        kind: 'team',
        id: w.teamId,
        before: { id: w.teamId, name: before!.name },
        after: { id: w.teamId, name },
      },
    };
  },
  examStaffAssign: async (w) => {
    const staffId = await w.newStaff('grader', w.teamId);
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, staff_id: staffId, role: 'grader' } },
      expect: {
        action: 'exam_staff.assign',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { exam_id: w.examId, staff_id: staffId, role: 'grader' },
      },
    };
  },
  examEditorCreate: (w) => ({
    as: 'authorA',
    input: { body: { name: 'Audited exam' } },
    expect: {
      action: 'exam.create',
      kind: 'exam',
      id: (d) => d.exam_id as number,
      before: null,
      after: { team_id: w.teamId, draft: { name: 'Audited exam' } },
    },
  }),
  examEditorSaveDraft: async (w) => {
    const { examId, revision } = await newTeamExam(w);
    const draft = (await inject(w.t, w.tokens.authorA, 'GET', `/admin/exam/detail?exam_id=${examId}`)).draft as Record<
      string,
      unknown
    >;
    return {
      as: 'authorA',
      input: { body: { exam_id: examId, revision, draft: { ...draft, name: 'Renamed', time_minutes: 45 } } },
      expect: {
        action: 'exam.save_draft',
        kind: 'exam',
        id: examId,
        before: { name: `Exam ${examId}`, time_minutes: 60 },
        after: { name: 'Renamed', time_minutes: 45 },
      },
    };
  },
  examEditorPublish: async (w) => {
    const { examId, revision } = await newTeamExam(w);
    return {
      as: 'authorA',
      input: { body: { exam_id: examId, revision } },
      expect: {
        action: 'exam.publish',
        kind: 'exam',
        id: examId,
        before: { status: 'draft', published_version_id: null },
        after: { status: 'published', number: 1 },
      },
    };
  },
  examEditorLiveChange: async (w) => {
    const { examId } = await newTeamExam(w, true);
    return {
      as: 'authorA',
      input: { body: { exam_id: examId, time_minutes: 90 } },
      expect: {
        action: 'exam.live_change',
        kind: 'exam',
        id: examId,
        before: { time_minutes: 60 },
        after: { time_minutes: 90 },
      },
    };
  },
  examEditorCopy: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId } },
    expect: {
      action: 'exam.copy',
      kind: 'exam',
      id: (d) => d.exam_id as number,
      before: null,
      after: { copied_from: w.examId },
    },
  }),
  examEditorArchive: async (w) => {
    const { examId } = await newTeamExam(w);
    return {
      as: 'authorA',
      input: { body: { exam_id: examId, archived: true } },
      expect: {
        action: 'exam.archive',
        kind: 'exam',
        id: examId,
        before: { status: 'draft' },
        after: { status: 'archived' },
      },
    };
  },
  examEditorPreview: async (w) => {
    const { examId } = await newTeamExam(w);
    return {
      as: 'authorA',
      input: { body: { exam_id: examId } },
      expect: {
        action: 'exam.preview',
        kind: 'exam',
        id: examId,
        before: null,
        after: { version_id: expect.any(Number), number: 1 },
      },
    };
  },
  examEditorInvite: (w) => {
    const phone = freshPhone('131');
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, phones: [{ phone }], extra_minutes: 5 } },
      expect: {
        action: 'exam.invite',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { invited: [{ phone, area_code: '86' }], extra_minutes: 5 },
      },
    };
  },
  invitationsBulk: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId, phones: [{ phone: freshPhone('134') }] } },
    expect: {
      action: 'exam.invite_bulk',
      kind: 'exam',
      id: w.examId,
      before: null,
      after: { job_id: expect.any(Number), phones: 1, candidates: 0, send_sms: true },
    },
  }),
  invitationsResend: async (w) => {
    const anid = await w.t.invite(w.examId, freshPhone('134'));
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, anids: [anid] } },
      expect: { action: 'exam.invite_resend', kind: 'exam', id: w.examId, before: null, after: { anids: [anid] } },
    };
  },
  invitationsRevoke: async (w) => {
    const anid = await w.t.invite(w.examId, freshPhone('134'));
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, anids: [anid], reason: '重复报名' } },
      expect: { action: 'exam.invite_revoke', kind: 'exam', id: w.examId, before: null, after: { anids: [anid] } },
    };
  },
  examSmsSave: (w) => ({
    as: 'authorA',
    input: {
      body: {
        exam_id: w.examId,
        invitation_template: '{link}',
        reminder_template: '{exam} {link}',
        reminder_minutes: [90],
      },
    },
    expect: {
      action: 'exam.sms_settings',
      kind: 'exam',
      id: w.examId,
      before: { reminder_minutes: expect.any(Array) },
      after: { invitation_template: '{link}', reminder_template: '{exam} {link}', reminder_minutes: [90] },
    },
  }),
  examStaffUnassign: async (w) => {
    const staffId = await w.newStaff('proctor', w.teamId);
    await w.assign(staffId, 'proctor');
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, staff_id: staffId, role: 'proctor' } },
      expect: {
        action: 'exam_staff.unassign',
        kind: 'exam',
        id: w.examId,
        before: { exam_id: w.examId, staff_id: staffId, role: 'proctor' },
        after: null,
      },
    };
  },
  bankFolderCreate: (w) => ({
    as: 'authorA',
    input: { body: { name: 'Audited folder' } },
    expect: {
      action: 'bank.folder.create',
      kind: 'folder',
      id: (d) => d.id as number,
      before: null,
      after: { name: 'Audited folder', team_id: w.teamId, parent_id: null },
    },
  }),
  bankFolderUpdate: async (w) => {
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { folder_id: folder.id, name: `${folder.name} renamed` } },
      expect: {
        action: 'bank.folder.update',
        kind: 'folder',
        id: folder.id,
        before: { name: folder.name },
        after: { name: `${folder.name} renamed` },
      },
    };
  },
  bankFolderDelete: async (w) => {
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { folder_id: folder.id } },
      expect: {
        action: 'bank.folder.delete',
        kind: 'folder',
        id: folder.id,
        before: { name: folder.name },
        after: null,
      },
    };
  },
  bankQuestionCreate: (w) => ({
    as: 'authorA',
    input: { body: { question: BANK_SINGLE, default_score: 5, tags: ['audited'] } },
    expect: {
      action: 'bank.question.create',
      kind: 'question',
      id: (d) => d.id as number,
      before: null,
      after: { kind: 'single', team_id: w.teamId, tags: ['audited'], key: { option: 'A' } },
    },
  }),
  bankQuestionUpdate: async (w) => {
    const id = await bankQuestion(w);
    return {
      as: 'authorA',
      input: { body: { question_id: id, revision: 1, question: BANK_SINGLE, difficulty: 5, default_score: 5 } },
      expect: {
        action: 'bank.question.update',
        kind: 'question',
        id,
        before: { difficulty: 3, revision: 1 },
        after: { difficulty: 5, revision: 2 },
      },
    };
  },
  bankBulkMove: async (w) => {
    const id = await bankQuestion(w);
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { question_ids: [id], folder_id: folder.id } },
      expect: {
        action: 'bank.question.move',
        kind: 'question',
        id,
        before: { folder_id: null },
        after: { folder_id: folder.id },
      },
    };
  },
  bankBulkTag: async (w) => {
    const id = await bankQuestion(w);
    return {
      as: 'authorA',
      input: { body: { question_ids: [id], tags: ['new'] } },
      expect: { action: 'bank.question.tag', kind: 'question', id, before: { tags: [] }, after: { tags: ['new'] } },
    };
  },
  bankBulkUntag: async (w) => {
    const id = await bankQuestion(w, { tags: ['old'] });
    return {
      as: 'authorA',
      input: { body: { question_ids: [id], tags: ['old'] } },
      expect: { action: 'bank.question.untag', kind: 'question', id, before: { tags: ['old'] }, after: { tags: [] } },
    };
  },
  bankBulkDelete: async (w) => {
    const id = await bankQuestion(w);
    return {
      as: 'authorA',
      input: { body: { question_ids: [id] } },
      expect: { action: 'bank.question.delete', kind: 'question', id, before: { id, kind: 'single' }, after: null },
    };
  },
  bankVerify: async (w) => {
    const id = await bankQuestion(w, { question: BANK_PROGRAMMING });
    return {
      as: 'authorA',
      input: { body: { question_id: id } },
      expect: {
        action: 'bank.question.verify',
        kind: 'question',
        id,
        before: null,
        after: { ok: true, verdict: 'AC', revision: 1 },
      },
      timeoutMs: 60_000,
    };
  },
  bankUploadImage: () => ({
    as: 'authorA',
    input: { file: { field: 'file', name: 'dot.png', type: 'image/png', data: onePixelPng() } },
    expect: {
      action: 'bank.upload.image',
      kind: 'file',
      id: null,
      before: null,
      after: { mime: 'image/png', key: expect.stringMatching(/^bank\/images\/[0-9a-f]{64}\.png$/) },
    },
  }),
  bankUploadAudio: () => ({
    as: 'authorA',
    input: { file: { field: 'file', name: 'beeps.wav', type: 'audio/wav', data: beepsWav(2) } },
    expect: {
      action: 'bank.upload.audio',
      kind: 'file',
      id: null,
      before: null,
      after: { mime: 'audio/wav', duration_s: expect.any(Number) },
    },
  }),
  bankUploadCases: () => ({
    as: 'authorA',
    input: {
      file: {
        field: 'file',
        name: 'cases.zip',
        type: 'application/zip',
        data: Buffer.from(zipSync({ '1.in': strToU8('1 2\n'), '1.out': strToU8('3\n') })),
      },
    },
    expect: { action: 'bank.upload.cases', kind: 'file', id: null, before: null, after: { cases: 1 } },
  }),
  candidateCreate: () => ({
    as: 'authorA',
    input: { body: { phone: '13299990001', name: 'Audit create' } },
    expect: {
      action: 'candidate.create',
      kind: 'candidate',
      id: (data) => data.id as number,
      before: null,
      after: { phone: '13299990001', name: 'Audit create' },
    },
  }),
  candidateUpdate: async (w) => {
    const id = await teamCandidate(w, 'Before');
    return {
      as: 'authorA',
      input: { body: { candidate_id: id, phone: '13299990002', name: 'After' } },
      expect: {
        action: 'candidate.update',
        kind: 'candidate',
        id,
        before: { name: 'Before' },
        after: { phone: '13299990002', name: 'After' },
      },
    };
  },
  candidateImportPreview: (w) => ({
    as: 'authorA',
    input: { file: candidateFile() },
    expect: {
      action: 'candidate.import.preview',
      kind: 'team',
      id: w.teamId,
      before: null,
      after: { file_name: 'list.csv', rows: 1, create: 1 },
    },
  }),
  candidateImport: (w) => ({
    as: 'authorA',
    input: { file: candidateFile() },
    expect: {
      action: 'candidate.import',
      kind: 'team',
      id: w.teamId,
      before: null,
      after: { file_name: 'list.csv', create: 1, skipped: 0 },
    },
  }),
  bankImportPreview: async (w) => {
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { folder_id: folder.id }, file: giftFile() },
      expect: {
        action: 'bank.import.preview',
        kind: 'folder',
        id: folder.id,
        before: null,
        after: { file_name: 'one.gift', format: 'gift', questions: 1 },
      },
    };
  },
  bankImport: async (w) => {
    const folder = await bankFolder(w);
    return {
      as: 'authorA',
      input: { body: { folder_id: folder.id, tags: 'imported' }, file: giftFile() },
      settle: async (data) => {
        await waitForJob(w.t, w.tokens.authorA, data.job_id as number);
      },
      expect: {
        action: 'bank.import',
        kind: 'folder',
        id: folder.id,
        before: null,
        after: { file_name: 'one.gift', format: 'gift', questions: 1, tags: ['imported'], skipped: 0 },
      },
    };
  },
  scheduleSlotCreate: (w) => {
    const start = w.t.now() + 3_600_000;
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, label: 'Morning', start_at: start, end_at: start + 3_600_000, capacity: 3 } },
      expect: {
        action: 'exam.slot.create',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { label: 'Morning', start_at: start, end_at: start + 3_600_000, capacity: 3, taken: 0 },
      },
    };
  },
  scheduleSlotUpdate: async (w) => {
    const slotId = await newSlot(w, 5);
    const start = w.t.now() + 3_600_000;
    return {
      as: 'authorA',
      input: {
        body: {
          exam_id: w.examId,
          slot_id: slotId,
          label: 'Later',
          start_at: start,
          end_at: start + 60_000,
          capacity: 8,
        },
      },
      expect: {
        action: 'exam.slot.update',
        kind: 'exam',
        id: w.examId,
        before: { id: slotId, capacity: 5 },
        after: { id: slotId, label: 'Later', capacity: 8 },
      },
    };
  },
  scheduleSlotDelete: async (w) => {
    const slotId = await newSlot(w, 6);
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, slot_id: slotId } },
      expect: {
        action: 'exam.slot.delete',
        kind: 'exam',
        id: w.examId,
        before: { id: slotId, capacity: 6 },
        after: null,
      },
    };
  },
  scheduleSlotMode: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId, slot_mode: 'chosen' } },
    expect: {
      action: 'exam.slot_mode',
      kind: 'exam',
      id: w.examId,
      before: { slot_mode: expect.any(String) },
      after: { slot_mode: 'chosen' },
    },
  }),
  scheduleAssignSlot: async (w) => {
    const anid = await w.t.invite(w.examId, freshPhone('132'));
    const slotId = await newSlot(w);
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, invitation_ids: [anid], slot_id: slotId } },
      expect: {
        action: 'exam.invitations.slot',
        kind: 'exam',
        id: w.examId,
        before: { invitations: [{ id: anid, slot_id: null }] },
        after: { invitations: [{ id: anid, slot_id: slotId }] },
      },
    };
  },
  scheduleAccommodations: async (w) => {
    const anid = await w.t.invite(w.examId, freshPhone('132'), 5);
    const window = { start_at: w.t.now(), end_at: w.t.now() + 86_400_000 };
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, invitation_ids: [anid], extra: { mode: 'percent', value: 25 }, window } },
      expect: {
        action: 'exam.invitations.accommodations',
        kind: 'exam',
        id: w.examId,
        before: { invitations: [{ id: anid, extra_mode: 'minutes', extra_minutes: 5, window_start: null }] },
        after: {
          invitations: [
            { id: anid, extra_mode: 'percent', extra_percent: 25, extra_minutes: 0, window_start: window.start_at },
          ],
        },
      },
    };
  },
  scheduleReopen: async (w) => {
    const attemptId = await finishedAttempt(w);
    return {
      as: 'authorA',
      input: { body: { attempt_id: attemptId, reason: 'Power cut in the hall', minutes: 15 } },
      expect: {
        action: 'attempt.reopen',
        kind: 'attempt',
        id: attemptId,
        before: { phase: 3, finish_reason: 'submit' },
        after: { phase: 2, end_at: w.t.now() + 15 * 60_000, minutes: 15, reason: 'Power cut in the hall' },
      },
    };
  },
  similarityRun: async (w) => {
    const questionId = await programmingQuestion(w);
    return {
      input: { body: { exam_id: w.examId, question_id: questionId } },
      expect: {
        action: 'similarity.run',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { question_id: questionId, job_id: expect.any(Number) },
      },
      settle: async (data) => void (await waitForJob(w.t, w.tokens.admin, data.job_id as number)),
    };
  },
  similarityDecide: async (w) => {
    const { pairId } = await similarPair(w);
    return {
      input: { body: { exam_id: w.examId, pair_id: pairId, status: 'confirmed', note: 'same code, same comments' } },
      expect: {
        action: 'similarity.decide',
        kind: 'similarity_pair',
        id: pairId,
        before: { status: 'open', note: '', score: 1 },
        after: { status: 'confirmed', note: 'same code, same comments', score: 1 },
      },
    };
  },
  gradingSettings: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId, blind: true, double_marking: false, margin: 1 } },
    expect: {
      action: 'grading.settings',
      kind: 'exam',
      id: w.examId,
      before: { double_marking: false },
      after: { blind: true, double_marking: false, margin: 1 },
    },
  }),
  gradingAssign: async (w) => {
    const staffId = await w.newStaff('grader', w.teamId);
    return {
      as: 'authorA',
      input: { body: { exam_id: w.examId, staff_id: staffId, sections: ['major'] } },
      expect: {
        action: 'grading.assign',
        kind: 'exam',
        id: w.examId,
        before: null,
        after: { staff_id: staffId, sections: ['major'] },
      },
    };
  },
  gradingMark: async (w) => {
    const answer = await answerToGrade(w);
    return {
      input: { body: { ...answer, criteria: [2.5, 2, 2.5, 1], comment: 'Isolation thin' } },
      expect: {
        action: 'grading.mark',
        kind: 'attempt',
        id: answer.attempt_id,
        before: { question_id: answer.question_id, points: null },
        after: { question_id: answer.question_id, points: 8, mark: { total: 8, comment: 'Isolation thin' } },
      },
    };
  },
  gradingReconcileMark: async (w) => {
    const answer = await answerToReconcile(w);
    return {
      as: 'authorA',
      input: { body: { ...answer, criteria: [2.5, 2.5, 2.5, 0], comment: 'Durability missing' } },
      expect: {
        action: 'grading.reconcile',
        kind: 'attempt',
        id: answer.attempt_id,
        before: { question_id: answer.question_id, points: null },
        after: { question_id: answer.question_id, points: 7.5, mark: { total: 7.5, reconciling: true } },
      },
    };
  },
  resultsExport: (w) => ({
    as: 'authorA',
    input: { body: { exam_id: w.examId, format: 'csv', school: 'Tsinghua' } },
    settle: async (data) => void (await waitForJob(w.t, w.tokens.authorA, data.job_id as number)),
    expect: {
      action: 'results.export',
      kind: 'exam',
      id: w.examId,
      before: null,
      after: { job_id: expect.any(Number), format: 'csv', filter: { school: 'Tsinghua' } },
    },
  }),
  gradingKey: async (w) => {
    const questionId = await qaQuestion(w);
    return {
      as: 'authorA',
      // A rubric's wording changes no score, so the re-scoring job leaves no entry of its own.
      input: { body: { exam_id: w.examId, question_id: questionId, key: { rubric: 'The four ACID properties.' } } },
      settle: async (data) => {
        await waitForJob(w.t, w.tokens.authorA, data.job_id as number);
      },
      expect: {
        action: 'grading.key',
        kind: 'exam',
        id: w.examId,
        before: { question_id: questionId },
        after: { question_id: questionId, key: { rubric: 'The four ACID properties.' } },
      },
    };
  },
  webhookSave: () => ({
    input: { body: { url: 'https://ats.example.com/hooks/examhall', secret: 'a-secret-of-sixteen-chars' } },
    expect: {
      action: 'webhook.create',
      kind: 'webhook',
      id: (d) => d.id as number,
      before: null,
      after: { url: 'https://ats.example.com/hooks/examhall', team_id: null, enabled: true },
    },
  }),
  webhookDelete: async (w) => {
    const id = await webhookEndpoint(w);
    return {
      input: { body: { id } },
      expect: {
        action: 'webhook.delete',
        kind: 'webhook',
        id,
        before: { url: 'http://127.0.0.1:9/hook' },
        after: null,
      },
    };
  },
  webhookTest: async (w) => {
    const id = await webhookEndpoint(w);
    return {
      input: { body: { id } },
      expect: { action: 'webhook.test', kind: 'webhook', id, before: null, after: { event: 'ping' } },
    };
  },
  webhookRedeliver: async (w) => {
    const id = await failedDelivery(w);
    return {
      input: { body: { id } },
      expect: {
        action: 'webhook.redeliver',
        kind: 'webhook',
        id: (d) => d.endpoint_id as number,
        before: { delivery_id: id, status: 'failed', attempts: 1 },
        after: { delivery_id: id, status: 'pending', attempts: 0 },
      },
    };
  },
  apiTokenCreate: (w) => ({
    input: { body: { name: 'ATS', team_id: w.teamId } },
    expect: {
      action: 'api_token.create',
      kind: 'api_token',
      id: (d) => (d.api_token as { id: number }).id,
      before: null,
      after: { name: 'ATS', scope: 'read-results', team_id: w.teamId, revoked: false },
    },
  }),
  apiTokenRevoke: async (w) => {
    const id = await apiTokenId(w);
    return {
      input: { body: { id } },
      expect: {
        action: 'api_token.revoke',
        kind: 'api_token',
        id,
        before: { name: 'ATS', revoked: false },
        after: { name: 'ATS', revoked: true },
      },
    };
  },
};
