/**
 * Inputs of every scoped staff call on team A's resources, for routes/access.test.ts (every scoped call refuses
 * another team's resources) and the tests that reuse them. A new staff call with a `scope` adds its entry here;
 * the access test fails, naming the call, until it does.
 */
import type { CallName } from '@examhall/contract';
import { randomUUID } from 'node:crypto';
import { BANK_SINGLE, type CallInput, type CallWorld, freshPhone, inject, newTeamExam } from './callWorld.js';
import {
  answerToGrade,
  answerToReconcile,
  bankFolder,
  bankQuestion,
  finishedAttempt,
  giftFile,
  heldJob,
  newSlot,
  NOT_A_PICTURE,
  programmingQuestion,
  qaQuestion,
  resultsExport,
  secondFactorOn,
  similarPair,
  staffSession,
  teamCandidate,
} from './teamResources.js';

/** Builds a scoped call's input on team A's resource (the ids in the call's `scope` field must be team A's). */
export type AccessFixture = (w: CallWorld) => CallInput | Promise<CallInput>;

/** Inputs of every scoped staff call (routes/access.test.ts). */
export const ACCESS_FIXTURES: Partial<Record<CallName, AccessFixture>> = {
  jobDetail: async (w) => ({ query: { job_id: await heldJob(w) } }),
  jobCancel: async (w) => ({ body: { job_id: await heldJob(w) } }),
  staffUpdate: (w) => ({ body: { id: w.staffId, name: 'Grader A' } }),
  staffResetPassword: (w) => ({ body: { id: w.staffId, password: w.password } }),
  staffSessionsOf: (w) => ({ query: { id: w.staffId } }),
  staffSessionEndOf: async (w) => ({ body: { id: w.staffId, session: await staffSession(w, w.staffId) } }),
  staffResetTotp: async (w) => {
    await secondFactorOn(w, w.staffId);
    return { body: { id: w.staffId } };
  },
  proctorGrid: (w) => ({ query: { exam_id: w.examId } }),
  proctorStream: (w) => ({ query: { exam_id: w.examId } }),
  proctorAttempt: (w) => ({ query: { attempt_id: w.attemptId } }),
  proctorWarn: (w) => ({ body: { attempt_id: w.attemptId, text: 'Please face the camera.' } }),
  proctorEnd: async (w) => ({ body: { attempt_id: (await w.newAttempt()).attemptId, reason: 'Left the room' } }),
  proctorDecide: (w) => ({ body: { record_id: w.recordId, decision: 'dismissed', note: '' } }),
  proctorIdPhoto: async (w) => ({
    body: { exam_id: String(w.examId), phone: (await w.newAttempt()).phone },
    file: { field: 'id_photo', name: 'id.jpg', type: 'image/jpeg', data: NOT_A_PICTURE },
  }),
  verifyEvidence: (w) => ({ query: { attempt_id: w.attemptId } }),
  teamUpdate: (w) => ({ body: { id: w.teamId, name: `Team A ${randomUUID().slice(0, 6)}` } }),
  examStaffList: (w) => ({ query: { exam_id: w.examId } }),
  // A fresh grader: the call is made once refused and once allowed.
  examStaffAssign: async (w) => ({
    body: { exam_id: w.examId, staff_id: await w.newStaff('grader', w.teamId), role: 'grader' },
  }),
  examStaffUnassign: async (w) => {
    await w.assign(w.staffId, 'grader');
    return { body: { exam_id: w.examId, staff_id: w.staffId, role: 'grader' } };
  },
  examEditorDetail: (w) => ({ query: { exam_id: w.examId } }),
  examEditorVersions: (w) => ({ query: { exam_id: w.examId } }),
  examEditorSebSettings: (w) => ({ query: { exam_id: w.examId } }),
  examEditorSaveDraft: async (w) => {
    const { examId, revision } = await newTeamExam(w);
    const draft = (await inject(w.t, w.tokens.authorA, 'GET', `/admin/exam/detail?exam_id=${examId}`)).draft;
    return { body: { exam_id: examId, revision, draft } };
  },
  examEditorPublish: async (w) => ({ body: { exam_id: (await newTeamExam(w)).examId, revision: 1 } }),
  examEditorLiveChange: async (w) => ({ body: { exam_id: (await newTeamExam(w, true)).examId, time_minutes: 90 } }),
  examEditorCopy: (w) => ({ body: { exam_id: w.examId } }),
  examEditorArchive: async (w) => ({ body: { exam_id: (await newTeamExam(w)).examId, archived: true } }),
  examEditorPreview: async (w) => ({ body: { exam_id: (await newTeamExam(w)).examId } }),
  examEditorPreviewKeys: async (w) => {
    const { examId } = await newTeamExam(w);
    const preview = await inject(w.t, w.tokens.authorA, 'POST', '/admin/exam/preview', { exam_id: examId });
    return { query: { exam_id: examId, version_id: preview.version_id as number } };
  },
  examEditorInvite: (w) => ({ body: { exam_id: w.examId, phones: [{ phone: freshPhone('131') }] } }),
  invitationsBulk: (w) => ({ body: { exam_id: w.examId, phones: [{ phone: freshPhone('133') }] } }),
  invitationsResend: async (w) => ({
    body: { exam_id: w.examId, anids: [await w.t.invite(w.examId, freshPhone('133'))] },
  }),
  invitationsRevoke: async (w) => ({
    body: { exam_id: w.examId, anids: [await w.t.invite(w.examId, freshPhone('133'))], reason: '重复报名' },
  }),
  examSms: (w) => ({ query: { exam_id: w.examId } }),
  examSmsSave: (w) => ({
    body: {
      exam_id: w.examId,
      invitation_template: '{link}',
      reminder_template: '{exam} {link}',
      reminder_minutes: [60],
    },
  }),
  smsList: (w) => ({ query: { exam_id: w.examId } }),
  bankFolderCreate: async (w) => ({ body: { name: 'Sub-folder', parent_id: (await bankFolder(w)).id } }),
  bankFolderUpdate: async (w) => ({ body: { folder_id: (await bankFolder(w)).id, name: `Renamed ${randomUUID()}` } }),
  bankFolderDelete: async (w) => ({ body: { folder_id: (await bankFolder(w)).id } }),
  bankQuestions: async (w) => ({ query: { folder_id: (await bankFolder(w)).id } }),
  bankQuestion: async (w) => ({ query: { question_id: await bankQuestion(w) } }),
  bankQuestionCreate: async (w) => ({
    body: { folder_id: (await bankFolder(w)).id, question: BANK_SINGLE, default_score: 5 },
  }),
  bankQuestionUpdate: async (w) => ({
    body: { question_id: await bankQuestion(w), revision: 1, question: BANK_SINGLE, default_score: 6 },
  }),
  bankBulkMove: async (w) => ({ body: { question_ids: [await bankQuestion(w)], folder_id: null } }),
  bankBulkTag: async (w) => ({ body: { question_ids: [await bankQuestion(w)], tags: ['access'] } }),
  bankBulkUntag: async (w) => ({
    body: { question_ids: [await bankQuestion(w, { tags: ['access'] })], tags: ['access'] },
  }),
  bankBulkDelete: async (w) => ({ body: { question_ids: [await bankQuestion(w)] } }),
  // A question that is no programming one: the check answers 422 past the access check, without the judge.
  bankVerify: async (w) => ({ body: { question_id: await bankQuestion(w) } }),
  bankImportPreview: async (w) => ({ body: { folder_id: (await bankFolder(w)).id }, file: giftFile() }),
  bankImport: async (w) => ({ body: { folder_id: (await bankFolder(w)).id }, file: giftFile() }),
  bankExportFolder: async (w) => ({ query: { folder_id: (await bankFolder(w)).id, format: 'gift' } }),
  bankExportQuestions: async (w) => ({ query: { question_ids: String(await bankQuestion(w)), format: 'gift' } }),
  examExport: (w) => ({ query: { exam_id: w.examId, format: 'moodle_xml' } }),
  scheduleSlots: (w) => ({ query: { exam_id: w.examId } }),
  scheduleSlotCreate: (w) => ({
    body: { exam_id: w.examId, start_at: w.t.now() + 3_600_000, end_at: w.t.now() + 7_200_000, capacity: 3 },
  }),
  scheduleSlotUpdate: async (w) => ({
    body: {
      exam_id: w.examId,
      slot_id: await newSlot(w),
      start_at: w.t.now() + 3_600_000,
      end_at: w.t.now() + 7_200_000,
      capacity: 4,
    },
  }),
  scheduleSlotDelete: async (w) => ({ body: { exam_id: w.examId, slot_id: await newSlot(w) } }),
  scheduleSlotMode: (w) => ({ body: { exam_id: w.examId, slot_mode: 'assigned' } }),
  scheduleInvitations: (w) => ({ query: { exam_id: w.examId } }),
  scheduleAssignSlot: async (w) => ({
    body: {
      exam_id: w.examId,
      invitation_ids: [await w.t.invite(w.examId, freshPhone('132'))],
      slot_id: await newSlot(w),
    },
  }),
  scheduleAccommodations: async (w) => ({
    body: {
      exam_id: w.examId,
      invitation_ids: [await w.t.invite(w.examId, freshPhone('132'))],
      extra: { mode: 'minutes', value: 10 },
    },
  }),
  scheduleReopen: async (w) => ({ body: { attempt_id: await finishedAttempt(w), reason: 'Power cut', minutes: 20 } }),
  candidateDetail: async (w) => ({ query: { candidate_id: await teamCandidate(w) } }),
  candidateUpdate: async (w) => ({
    body: { candidate_id: await teamCandidate(w), phone: freshPhone('132'), name: 'Edited' },
  }),
  examCandidates: (w) => ({ query: { exam_id: w.examId } }),
  examCandidatesExport: (w) => ({ query: { exam_id: w.examId, format: 'csv' } }),
  similarityQuestions: (w) => ({ query: { exam_id: w.examId } }),
  similarityRun: async (w) => ({ body: { exam_id: w.examId, question_id: await programmingQuestion(w) } }),
  similarityPairs: async (w) => ({ query: { exam_id: w.examId, question_id: await programmingQuestion(w) } }),
  similarityPair: async (w) => ({ query: { exam_id: w.examId, pair_id: (await similarPair(w)).pairId } }),
  similarityDecide: async (w) => ({
    body: { exam_id: w.examId, pair_id: (await similarPair(w)).pairId, status: 'dismissed', note: '' },
  }),
  gradingSetup: (w) => ({ query: { exam_id: w.examId } }),
  gradingSettings: (w) => ({ body: { exam_id: w.examId, blind: false, double_marking: false, margin: 0 } }),
  gradingAssign: async (w) => ({
    body: { exam_id: w.examId, staff_id: await w.newStaff('grader', w.teamId), sections: ['major'] },
  }),
  gradingNext: (w) => ({ query: { exam_id: w.examId } }),
  gradingItem: async (w) => ({ query: await answerToGrade(w) }),
  gradingMark: async (w) => ({ body: { ...(await answerToGrade(w)), criteria: [2.5, 2.5, 0, 0] } }),
  gradingReconcile: (w) => ({ query: { exam_id: w.examId } }),
  gradingReconcileMark: async (w) => ({ body: { ...(await answerToReconcile(w)), criteria: [2.5, 2.5, 2.5, 0] } }),
  gradingProgress: (w) => ({ query: { exam_id: w.examId } }),
  itemAnalysis: (w) => ({ query: { exam_id: w.examId } }),
  gradingKey: async (w) => ({
    body: { exam_id: w.examId, question_id: await qaQuestion(w), key: { rubric: 'Four properties.' } },
  }),
  resultsRanking: (w) => ({ query: { exam_id: w.examId } }),
  resultsReport: async (w) => ({ query: { attempt_id: await finishedAttempt(w) } }),
  resultsStats: (w) => ({ query: { exam_id: w.examId } }),
  resultsDimensions: (w) => ({ query: { exam_id: w.examId } }),
  resultsExport: (w) => ({ body: { exam_id: w.examId, format: 'xlsx' } }),
  resultsExportFile: async (w) => ({ query: { job_id: await resultsExport(w) } }),
};
