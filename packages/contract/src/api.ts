/** The API catalogue: every call's method, path, schemas and who may make it. Server and web both read it. */
import type { z } from 'zod';
import type { Permission } from './enums.js';
import * as A from './schemas/answer.js';
import * as C from './schemas/ceping.js';
import { Empty } from './schemas/common.js';
import * as E from './schemas/exam.js';
import * as M from './schemas/monitor.js';
import * as P from './schemas/profile.js';
import * as Pr from './schemas/proctor.js';
import * as Site from './schemas/site.js';
import * as St from './schemas/staff.js';
import * as S from './schemas/subject.js';
import * as U from './schemas/user.js';

/** Who may make a call. */
export type CallAuth = 'public' | 'candidate' | 'staff' | 'phone';

/** One API call. */
export interface CallDef<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  D extends z.ZodType = z.ZodType,
  A extends CallAuth = CallAuth,
> {
  /** HTTP method. */
  method: 'GET' | 'POST' | 'DELETE';
  /** Path after the API prefix, as the specification names it. */
  path: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** Query-string schema. */
  query: Q;
  /** Body schema. */
  body: B;
  /** Schema of `data` in the success envelope. */
  data: D;
  /** Who may make it. */
  auth: A;
  /** Permission a staff call requires (staff calls only). */
  permission?: Permission;
  /** How the body is encoded; JSON unless said. */
  bodyFormat?: 'json' | 'form' | 'multipart';
  /** True when the server serves it now; calls of later features are declared ahead. */
  live?: boolean;
  /** 'sse' when the call answers a stream of server-sent events, each `data:` one JSON object of `data`'s schema. */
  stream?: 'sse';
}

function call<
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  D extends z.ZodType,
  A extends CallAuth,
>(def: CallDef<Q, B, D, A>): CallDef<Q, B, D, A> {
  return def;
}

/** Every call, keyed by a stable name. */
export const api = {
  // user
  areaCodeList: call({
    method: 'GET',
    path: '/user/area-code-list',
    summary: 'Calling codes offered at login',
    query: undefined,
    body: undefined,
    data: U.AreaCodeListData,
    auth: 'public',
  }),
  sendMsg: call({
    method: 'GET',
    path: '/user/send-msg',
    summary: 'Send a login code by SMS',
    query: U.SendMsgQuery,
    body: undefined,
    data: U.SendMsgData,
    auth: 'public',
  }),
  login: call({
    method: 'POST',
    path: '/user/login',
    summary: 'Log in with phone and SMS code',
    query: undefined,
    body: U.LoginBody,
    data: U.LoginData,
    auth: 'public',
  }),
  getInfo: call({
    method: 'GET',
    path: '/user/get-info',
    summary: 'The logged-in candidate',
    query: undefined,
    body: undefined,
    data: U.GetInfoData,
    auth: 'candidate',
  }),
  logout: call({
    method: 'POST',
    path: '/user/logout',
    summary: 'Revoke the current token',
    query: undefined,
    body: undefined,
    data: Empty,
    auth: 'candidate',
  }),
  // site and time
  siteConfig: call({
    method: 'GET',
    path: '/common/site-config',
    summary: 'Maintenance window, support phone and client settings',
    query: undefined,
    body: undefined,
    data: Site.SiteConfigData,
    auth: 'public',
  }),
  timeTable: call({
    method: 'GET',
    path: '/monitor/time-table',
    summary: 'Server time (UTC+8)',
    query: undefined,
    body: undefined,
    data: M.TimeTableData,
    auth: 'public',
  }),
  // exams
  examIndex: call({
    method: 'GET',
    path: '/exam/index',
    summary: 'Exams the candidate is invited to',
    query: E.ExamIndexQuery,
    body: undefined,
    data: E.ExamIndexData,
    auth: 'candidate',
  }),
  examShow: call({
    method: 'GET',
    path: '/exam/show',
    summary: 'Exam detail by id and anid',
    query: E.ExamShowQuery,
    body: undefined,
    data: E.ExamDetail,
    auth: 'candidate',
  }),
  anidInfo: call({
    method: 'GET',
    path: '/exam/get-anid-info',
    summary: 'An invitation',
    query: E.AnidInfoQuery,
    body: undefined,
    data: E.AnidInfoData,
    auth: 'candidate',
  }),
  recommendInfo: call({
    method: 'GET',
    path: '/exam/recommend-info',
    summary: 'Positions recommended after the exam',
    query: E.RecommendQuery,
    body: undefined,
    data: E.RecommendData,
    auth: 'candidate',
  }),
  feedback: call({
    method: 'POST',
    path: '/exam/feedback',
    summary: 'Feedback on an exam',
    query: undefined,
    body: E.FeedbackBody,
    data: E.FeedbackData,
    auth: 'candidate',
  }),
  examResult: call({
    method: 'GET',
    path: '/exam/result',
    summary: 'The outcome of the finished attempt',
    query: E.ResultQuery,
    body: undefined,
    data: M.ExamResult,
    auth: 'candidate',
  }),
  myInfo: call({
    method: 'GET',
    path: '/user/my-info',
    summary: 'The candidate profile',
    query: undefined,
    body: undefined,
    data: P.MyInfoData,
    auth: 'candidate',
  }),
  saveMyInfo: call({
    method: 'POST',
    path: '/user/my-info',
    summary: 'Save the candidate profile',
    query: undefined,
    body: P.MyInfoBody,
    data: P.MyInfoData,
    auth: 'candidate',
  }),
  resume: call({
    method: 'GET',
    path: '/resume/index',
    summary: 'The uploaded resume',
    query: undefined,
    body: undefined,
    data: P.ResumeData,
    auth: 'candidate',
  }),
  uploadResume: call({
    method: 'POST',
    path: '/resume/index',
    summary: 'Upload the resume (multipart field file)',
    query: undefined,
    body: undefined,
    data: P.ResumeData,
    auth: 'candidate',
    bodyFormat: 'multipart',
  }),
  colleges: call({
    method: 'GET',
    path: '/common/const',
    summary: 'Lists behind the profile form (type=college)',
    query: P.ConstQuery,
    body: undefined,
    data: P.ConstData,
    auth: 'public',
  }),
  majors: call({
    method: 'GET',
    path: '/const/mixed-major',
    summary: 'Majors by discipline',
    query: undefined,
    body: undefined,
    data: P.MixedMajorData,
    auth: 'public',
  }),
  wxUrlLink: call({
    method: 'GET',
    path: '/exam/wx-url-link',
    summary: 'Link that opens the second-view page on a phone',
    query: E.WxUrlLinkQuery,
    body: undefined,
    data: E.WxUrlLinkData,
    auth: 'candidate',
  }),
  miniQrcode: call({
    method: 'GET',
    path: '/common/mini-qrcode',
    summary: 'QR code of the link that opens the second-view page on a phone',
    query: Pr.MiniQrcodeQuery,
    body: undefined,
    data: Pr.MiniQrcodeData,
    auth: 'candidate',
  }),
  // attempt
  startExam: call({
    method: 'POST',
    path: '/monitor/start-exam',
    summary: 'Create or resume the attempt',
    query: undefined,
    body: M.StartExamBody,
    data: M.StartExamData,
    auth: 'candidate',
  }),
  finishExam: call({
    method: 'POST',
    path: '/monitor/finish-exam',
    summary: 'Submit the attempt',
    query: undefined,
    body: M.FinishExamBody,
    data: M.FinishExamData,
    auth: 'candidate',
  }),
  firstPicture: call({
    method: 'POST',
    path: '/monitor/first-picture',
    summary: 'Record the first camera picture',
    query: undefined,
    body: M.FirstPictureBody,
    data: A.EvidenceData,
    auth: 'candidate',
  }),
  capture: call({
    method: 'POST',
    path: '/monitor/capture',
    summary: 'Record a camera frame, screen capture or signature already in storage',
    query: undefined,
    body: Pr.CaptureBody,
    data: A.EvidenceData,
    auth: 'candidate',
  }),
  check: call({
    method: 'POST',
    path: '/monitor/check',
    summary: 'Record the outcome of one device check (a skip records risk 15 to 18)',
    query: undefined,
    body: Pr.CheckBody,
    data: A.EvidenceData,
    auth: 'candidate',
  }),
  monitorState: call({
    method: 'GET',
    path: '/monitor/state',
    summary: 'Monitor data of the attempt: first picture, checks, captures, phone status',
    query: Pr.MonitorStateQuery,
    body: undefined,
    data: Pr.MonitorStateData,
    auth: 'candidate',
  }),
  candidateEvents: call({
    method: 'GET',
    path: '/monitor/events',
    summary: 'Live stream of warnings, phone status and the end of the attempt',
    query: Pr.CandidateEventsQuery,
    body: undefined,
    data: Pr.CandidateEvent,
    auth: 'candidate',
    stream: 'sse',
  }),
  warningRead: call({
    method: 'POST',
    path: '/monitor/warning-read',
    summary: "Record that the candidate acknowledged a proctor's warning (the first read counts)",
    query: undefined,
    body: Pr.WarningReadBody,
    data: Pr.WarningView,
    auth: 'candidate',
  }),
  integrityLog: call({
    method: 'GET',
    path: '/monitor/integrity-log',
    summary: "The candidate's own integrity log, after the exam",
    query: Pr.MonitorStateQuery,
    body: undefined,
    data: Pr.IntegrityLogData,
    auth: 'candidate',
  }),
  recordRisk: call({
    method: 'POST',
    path: '/monitor/record-risk',
    summary: 'Record a risk event',
    query: undefined,
    body: M.RecordRiskBody,
    data: M.RecordRiskData,
    auth: 'candidate',
    bodyFormat: 'form',
  }),
  fastRecordRisk: call({
    method: 'POST',
    path: '/monitor/fast-record-risk',
    summary: 'Record a risk event cheaply (also sent by sendBeacon on unload)',
    query: undefined,
    body: Pr.FastRecordRiskBody,
    data: A.EvidenceData,
    auth: 'candidate',
    bodyFormat: 'form',
  }),
  faceRecognize: call({
    method: 'POST',
    path: '/tools/face_recognize',
    summary: 'Face count and similarity of a picture',
    query: undefined,
    body: M.FaceRecognizeFields,
    data: M.FaceRecognizeData,
    auth: 'candidate',
    bodyFormat: 'multipart',
  }),
  stsToken: call({
    method: 'GET',
    path: '/sts/get-token',
    summary: 'Short-lived upload credentials',
    query: Pr.StsQuery,
    body: undefined,
    data: M.StsData,
    auth: 'candidate',
  }),
  // phone page (second view); its token comes from the QR link
  phoneSession: call({
    method: 'GET',
    path: '/phone/session',
    summary: 'The exam and capture interval for the phone page',
    query: undefined,
    body: undefined,
    data: Pr.PhoneSessionData,
    auth: 'phone',
  }),
  phoneStsToken: call({
    method: 'GET',
    path: '/phone/sts-token',
    summary: "Short-lived upload credentials for the phone page (the attempt's prefix)",
    query: undefined,
    body: undefined,
    data: M.StsData,
    auth: 'phone',
  }),
  phonePicture: call({
    method: 'POST',
    path: '/phone/picture',
    summary: 'Record a phone picture already in storage',
    query: undefined,
    body: Pr.PhonePictureBody,
    data: A.EvidenceData,
    auth: 'phone',
  }),
  // questions and answers
  orderList: call({
    method: 'GET',
    path: '/subject/order-list',
    summary: 'Questions in display order',
    query: S.OrderListQuery,
    body: undefined,
    data: S.OrderListData,
    auth: 'candidate',
  }),
  showNew: call({
    method: 'GET',
    path: '/subject/show-new',
    summary: 'One question, without its key',
    query: S.ShowNewQuery,
    body: undefined,
    data: S.ShowNewData,
    auth: 'candidate',
  }),
  audioInfo: call({
    method: 'POST',
    path: '/subject/get-audio-info',
    summary: 'Audio of a listening question and plays left',
    query: undefined,
    body: S.AudioBody,
    data: S.AudioData,
    auth: 'candidate',
  }),
  audioPlay: call({
    method: 'POST',
    path: '/subject/audio-play',
    summary: 'Count one play of a listening audio',
    query: undefined,
    body: S.AudioBody,
    data: S.AudioData,
    auth: 'candidate',
  }),
  answer: call({
    method: 'POST',
    path: '/answer/answer',
    summary: 'Save an answer and/or record an answer event',
    query: undefined,
    body: A.AnswerBody,
    data: A.AnswerReceipt,
    auth: 'candidate',
  }),
  uploadAnswerFile: call({
    method: 'POST',
    path: '/answer/upload',
    summary: 'Attach a file to a Q&A answer (multipart: exam_id, subject_id, file)',
    query: undefined,
    body: undefined,
    data: A.UploadData,
    auth: 'candidate',
    bodyFormat: 'multipart',
  }),
  judge: call({
    method: 'POST',
    path: '/answer/judge',
    summary: 'Run or submit code',
    query: undefined,
    body: A.JudgeBody,
    data: A.JudgeData,
    auth: 'candidate',
  }),
  judgeStatus: call({
    method: 'GET',
    path: '/answer/judge-status',
    summary: 'Progress and results of a run or submit',
    query: A.JudgeStatusQuery,
    body: undefined,
    data: A.JudgeData,
    auth: 'candidate',
  }),
  pertinentMoment: call({
    method: 'POST',
    path: '/answer/pertinent-moment',
    summary: 'Record a picture taken at a risk event',
    query: undefined,
    body: A.PertinentBody,
    data: A.EvidenceData,
    auth: 'candidate',
  }),
  byte: call({
    method: 'POST',
    path: '/answer/byte',
    summary: 'Record a short microphone recording',
    query: undefined,
    body: A.ByteBody,
    data: A.EvidenceData,
    auth: 'candidate',
  }),
  // evaluation
  cepingLineOrder: call({
    method: 'GET',
    path: '/ceping/exam-line-order',
    summary: 'Evaluation answer card',
    query: C.CepingExamQuery,
    body: undefined,
    data: C.CepingLineOrderData,
    auth: 'candidate',
  }),
  cepingOrderList: call({
    method: 'GET',
    path: '/ceping/exam-order-list',
    summary: 'Evaluation items in order',
    query: C.CepingExamQuery,
    body: undefined,
    data: C.CepingOrderListData,
    auth: 'candidate',
  }),
  cepingShow: call({
    method: 'GET',
    path: '/ceping/exam-show',
    summary: 'One evaluation item',
    query: C.CepingShowQuery,
    body: undefined,
    data: C.CepingShowData,
    auth: 'candidate',
  }),
  cepingShowNew: call({
    method: 'GET',
    path: '/ceping/exam-show-new',
    summary: 'One evaluation item with neighbours',
    query: C.CepingShowQuery,
    body: undefined,
    data: C.CepingShowData,
    auth: 'candidate',
  }),
  cepingAnswer: call({
    method: 'POST',
    path: '/ceping/answer',
    summary: 'Answer an evaluation item',
    query: undefined,
    body: C.CepingAnswerBody,
    data: A.AnswerReceipt,
    auth: 'candidate',
  }),
  cepingFinish: call({
    method: 'POST',
    path: '/ceping/exam-finish',
    summary: 'Finish the evaluation and score its dimensions',
    query: undefined,
    body: C.CepingFinishBody,
    data: C.CepingFinishData,
    auth: 'candidate',
  }),
  // staff
  staffLogin: call({
    method: 'POST',
    path: '/admin/auth/login',
    summary: 'Staff password login',
    query: undefined,
    body: St.StaffLoginBody,
    data: St.StaffLoginData,
    auth: 'public',
  }),
  staffLogout: call({
    method: 'POST',
    path: '/admin/auth/logout',
    summary: 'Revoke the current staff token',
    query: undefined,
    body: undefined,
    data: Empty,
    auth: 'staff',
  }),
  staffMe: call({
    method: 'GET',
    path: '/admin/auth/me',
    summary: 'The logged-in staff account',
    query: undefined,
    body: undefined,
    data: St.StaffView,
    auth: 'staff',
  }),
  staffList: call({
    method: 'GET',
    path: '/admin/staff',
    summary: 'Staff accounts',
    query: undefined,
    body: undefined,
    data: St.StaffListData,
    auth: 'staff',
    permission: 'staff.read',
  }),
  staffCreate: call({
    method: 'POST',
    path: '/admin/staff',
    summary: 'Create a staff account',
    query: undefined,
    body: St.CreateStaffBody,
    data: St.StaffView,
    auth: 'staff',
    permission: 'staff.manage',
  }),
  // proctor console
  proctorExams: call({
    method: 'GET',
    path: '/admin/proctor/exams',
    summary: 'Exams to watch, with attempts and open flags',
    query: undefined,
    body: undefined,
    data: Pr.ProctorExamsData,
    auth: 'staff',
    permission: 'proctor.watch',
  }),
  proctorGrid: call({
    method: 'GET',
    path: '/admin/proctor/grid',
    summary: "The exam's candidates: latest picture, phase, time, risks, online state",
    query: Pr.ProctorExamQuery,
    body: undefined,
    data: Pr.ProctorGridData,
    auth: 'staff',
    permission: 'proctor.watch',
  }),
  proctorStream: call({
    method: 'GET',
    path: '/admin/proctor/stream',
    summary: 'Live stream of tile changes and new risk events of an exam',
    query: Pr.ProctorExamQuery,
    body: undefined,
    data: Pr.ProctorEvent,
    auth: 'staff',
    permission: 'proctor.watch',
    stream: 'sse',
  }),
  proctorAttempt: call({
    method: 'GET',
    path: '/admin/proctor/attempt',
    summary: "One attempt's timeline of risk events and evidence",
    query: Pr.ProctorAttemptQuery,
    body: undefined,
    data: Pr.ProctorAttemptData,
    auth: 'staff',
    permission: 'proctor.watch',
  }),
  proctorWarn: call({
    method: 'POST',
    path: '/admin/proctor/warn',
    summary: 'Send the candidate a warning they see at once',
    query: undefined,
    body: Pr.WarnBody,
    data: Pr.WarningView,
    auth: 'staff',
    permission: 'proctor.watch',
  }),
  proctorEnd: call({
    method: 'POST',
    path: '/admin/proctor/end',
    summary: 'End an attempt',
    query: undefined,
    body: Pr.EndAttemptBody,
    data: M.AttemptView,
    auth: 'staff',
    permission: 'proctor.decide',
  }),
  proctorDecide: call({
    method: 'POST',
    path: '/admin/proctor/decide',
    summary: 'Confirm or dismiss a flag',
    query: undefined,
    body: Pr.DecideBody,
    data: Pr.IntegrityRecord,
    auth: 'staff',
    permission: 'proctor.decide',
  }),
  proctorIdPhoto: call({
    method: 'POST',
    path: '/admin/proctor/id-photo',
    summary:
      "Store or replace the ID photo of a candidate's invitation (multipart: exam_id, attempt_id or phone, id_photo)",
    query: undefined,
    body: Pr.IdPhotoFields,
    data: Pr.IdPhotoData,
    auth: 'staff',
    // The photo decides which later faces are flagged: a judgement, like deciding on a flag.
    permission: 'proctor.decide',
    bodyFormat: 'multipart',
  }),
  verifyEvidence: call({
    method: 'GET',
    path: '/admin/evidence/verify',
    summary: "Check an attempt's hash chain and the SHA-256 of every evidence file",
    query: Pr.VerifyEvidenceQuery,
    body: undefined,
    data: Pr.VerifyEvidenceData,
    auth: 'staff',
    permission: 'proctor.watch',
  }),
} as const;

/** A call's name. */
export type CallName = keyof typeof api;
/** What a call's query accepts. */
export type CallQuery<C extends CallDef> = C['query'] extends z.ZodType ? z.input<C['query']> : undefined;
/** What a call's body accepts. */
export type CallBody<C extends CallDef> = C['body'] extends z.ZodType ? z.input<C['body']> : undefined;
/** What a call answers in `data`. */
export type CallData<C extends CallDef> = z.infer<C['data']>;
