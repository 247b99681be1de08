import { z } from 'zod';
import { ExamMode, ExamPhase } from '../enums.js';
import { ClientId, EpochMs, Flag, Id, PageQuery, IdParam } from './common.js';
import { PrepareItem, SlotRef, WindowSource } from './schedule.js';

/** An exam mode id. */
export const ExamModeField = z.union([
  z.literal(ExamMode.simulate),
  z.literal(ExamMode.exam),
  z.literal(ExamMode.longTime),
]);
/** What candidates see of their outcome: their score, only passed or not, or nothing. */
export const ShowScoreField = z.enum(['score', 'pass', 'none']);
/** An exam phase id. */
export const ExamPhaseField = z.union([
  z.literal(ExamPhase.monitor),
  z.literal(ExamPhase.exam),
  z.literal(ExamPhase.submit),
]);

/** Where the candidate stands with an exam in the list. */
export const InvitationState = z.enum(['not_started', 'open', 'in_progress', 'submitted', 'closed']);
/**
 * Where the candidate stands with an exam in the list: not_started and open before they start (by the window),
 * in_progress while their attempt runs, submitted once it is handed in or over, closed when the window closed
 * without an attempt (absent).
 */
export type InvitationState = z.infer<typeof InvitationState>;

/** One exam in /exam/index. */
export const ExamListItem = z.object({
  /** Exam id. */
  id: z.number().int(),
  /** The candidate's invitation to this exam. */
  anid: z.number().int(),
  /** Exam name. */
  name: z.string(),
  /** Mode: simulate 0, exam 1, longTime 2. */
  mode: ExamModeField,
  /** Length in minutes. */
  time: z.number().int(),
  /** When the exam opens (epoch ms). */
  start_at: EpochMs,
  /** When the exam closes (epoch ms). */
  end_at: EpochMs,
  /** Where the candidate stands. */
  state: InvitationState,
  /** The candidate's own window: personal window ?? slot ?? the exam's (start, epoch ms). */
  window_start: EpochMs,
  /** The end of the candidate's own window. */
  window_end: EpochMs,
  /** Where the own window comes from. */
  window_source: WindowSource,
  /** The candidate's slot, or null. */
  slot: SlotRef.nullable(),
  /** True when the candidate may pick or change their slot now. */
  slot_choosable: z.boolean(),
  /** The exam's own length, minutes (`time` adds the candidate's extra time). */
  base_time: z.number().int(),
  /** The candidate's extra time, minutes. */
  extra_minutes: z.number().int(),
  /** What to have ready for the device checks, in check order. */
  prepare: z.array(PrepareItem),
});
/** One exam in /exam/index. */
export type ExamListItem = z.infer<typeof ExamListItem>;

/** GET /exam/index query. */
export const ExamIndexQuery = PageQuery;
/** GET /exam/index query. */
export type ExamIndexQuery = z.input<typeof ExamIndexQuery>;

/** GET /exam/index data. */
export const ExamIndexData = z.object({
  /** The exams the candidate is invited to, soonest first. */
  list: z.array(ExamListItem),
  /** How many there are in all. */
  total: z.number().int(),
});
/** GET /exam/index data. */
export type ExamIndexData = z.infer<typeof ExamIndexData>;

/** GET /exam/show query. */
export const ExamShowQuery = z.object({
  /** Exam id. */
  id: IdParam,
  /** The candidate's invitation to it. */
  anid: IdParam,
});
/** GET /exam/show query. */
export type ExamShowQuery = z.input<typeof ExamShowQuery>;

/** Question counts per section. */
export const CountNum = z.object({
  /** Aptitude questions. */
  linetest: z.number().int(),
  /** Professional questions. */
  major: z.number().int(),
  /** Evaluation items. */
  evaluation: z.number().int(),
});
/** Question counts per section. */
export type CountNum = z.infer<typeof CountNum>;

/** GET /exam/show data: every field the candidate client reads and what the pages need besides. */
export const ExamDetail = z.object({
  /** Exam id. */
  id: z.number().int(),
  /** The candidate's invitation. */
  anid: z.number().int(),
  /** Exam name. */
  name: z.string(),
  /** Instructions shown before the exam (sanitized HTML). */
  description: z.string(),
  /** Mode. */
  mode: ExamModeField,
  /** Length in minutes, the candidate's extra time included. */
  time: z.number().int(),
  /** When the exam window opens and closes (epoch ms). */
  start_at: EpochMs,
  /** When the exam window closes (epoch ms). */
  end_at: EpochMs,
  /** The candidate's own window (personal window ?? slot ?? the exam's): when it opens (epoch ms). */
  window_start: EpochMs,
  /** When the candidate's own window closes (epoch ms). */
  window_end: EpochMs,
  /** The candidate's attempt so far. */
  userData: z.object({
    /** When the attempt started (epoch ms), null before it does. */
    create_time: EpochMs.nullable(),
    /** The attempt's phase, null before it starts. */
    phase: ExamPhaseField.nullable(),
  }),
  /** 1 shows the enterprise logo. */
  is_enterprise_logo: Flag,
  /** Icon file name. */
  ico_name: z.string(),
  /** Path of the system logo. */
  systemLogoPath: z.string(),
  /** Paste into answers allowed. */
  is_paste: Flag,
  /** Copying question text allowed. */
  is_copy_question: Flag,
  /** File upload allowed on Q&A. */
  is_upload_file: Flag,
  /** Screen switches allowed before the attempt is submitted. */
  cutting_times: z.number().int(),
  /** Seconds between proctoring captures (camera frames, screen, phone); 30 unless the author sets it. */
  capture_interval: z.number().int().min(5).max(600).default(30),
  /** The camera step may be skipped. */
  is_skip_camera: Flag,
  /** The microphone step may be skipped. */
  is_skip_microphone: Flag,
  /** The screen-sharing step may be skipped. */
  is_skip_screen: Flag,
  /** The phone (second view) step may be skipped. */
  is_skip_phone: Flag,
  /** The camera step is removed. */
  is_close_camera: Flag,
  /** The microphone step is removed. */
  is_close_microphone: Flag,
  /** The screen-sharing step is removed. */
  is_close_screen: Flag,
  /** The phone step is removed. */
  is_close_phone: Flag,
  /**
   * 1: a second screen may stay connected; 0 (the default): the device check asks to disconnect it, and one seen
   * during the exam is a risk event (22). Ours, beside the specification's flags.
   */
  is_second_screen: Flag.default(0),
  /** Question counts per section. */
  countNum: CountNum,
  /** The pledge the candidate signs, as the exam's author wrote it (plain text); empty: the standard pledge. */
  pledge: z.string(),
  /** True while the exam needs an ID photo on the invitation and it has none: entering the exam is refused. */
  id_photo_missing: z.boolean(),
});
/** GET /exam/show data. */
export type ExamDetail = z.infer<typeof ExamDetail>;

/** GET /exam/get-anid-info query. */
export const AnidInfoQuery = z.object({
  /** The invitation id. */
  anid: IdParam,
});
/** GET /exam/get-anid-info query. */
export type AnidInfoQuery = z.input<typeof AnidInfoQuery>;

/** GET /exam/get-anid-info data. */
export const AnidInfoData = z.object({
  /** The invitation id. */
  anid: z.number().int(),
  /** The exam it is for. */
  exam_id: z.number().int(),
  /** Exam name. */
  exam_name: z.string(),
  /** The invited phone, masked. */
  phone_masked: z.string(),
  /** Where the candidate stands. */
  state: InvitationState,
});
/** GET /exam/get-anid-info data. */
export type AnidInfoData = z.infer<typeof AnidInfoData>;

/** GET /exam/result query. */
export const ResultQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});
/** GET /exam/result query. */
export type ResultQuery = z.input<typeof ResultQuery>;

/** GET /exam/recommend-info query. */
export const RecommendQuery = z.object({
  /** The exam taken. */
  exam_id: IdParam,
});
/** GET /exam/recommend-info query. */
export type RecommendQuery = z.input<typeof RecommendQuery>;

/** A recommended position. */
export const Position = z.object({
  /** Position id. */
  id: z.number().int(),
  /** Title. */
  title: z.string(),
  /** Department. */
  department: z.string(),
  /** City. */
  city: z.string(),
  /** What the job is. */
  description: z.string(),
  /** How well the candidate's result fits, 0 to 100; null when the exam does not show candidates their score. */
  match: z.number().nullable(),
});
/** A recommended position. */
export type Position = z.infer<typeof Position>;

/** GET /exam/recommend-info data. */
export const RecommendData = z.object({
  /** Positions, best match first (in the author's order when the exam tells candidates nothing of their result). */
  list: z.array(Position),
});
/** GET /exam/recommend-info data. */
export type RecommendData = z.infer<typeof RecommendData>;

/** POST /exam/feedback body. */
export const FeedbackBody = z.object({
  /** The exam the feedback is about. */
  exam_id: Id,
  /** Rating from 1 to 5. */
  rating: z.coerce.number().int().min(1).max(5),
  /** Free text. */
  content: z.string().trim().max(2000).default(''),
  /** Makes a retried submit idempotent. */
  client_id: ClientId,
});
/** POST /exam/feedback body. */
export type FeedbackBody = z.input<typeof FeedbackBody>;

/** POST /exam/feedback data. */
export const FeedbackData = z.object({
  /** Feedback id. */
  id: z.number().int(),
});
/** POST /exam/feedback data. */
export type FeedbackData = z.infer<typeof FeedbackData>;

/** GET /exam/wx-url-link query. */
export const WxUrlLinkQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** The candidate's invitation. */
  anid: IdParam,
});
/** GET /exam/wx-url-link query. */
export type WxUrlLinkQuery = z.input<typeof WxUrlLinkQuery>;

/** GET /exam/wx-url-link data: a short-lived link that opens the second-view page on a phone. */
export const WxUrlLinkData = z.object({
  /** The link to encode in the QR code. */
  url: z.string(),
  /** When the link stops working (epoch ms). */
  expires_at: EpochMs,
});
/** GET /exam/wx-url-link data. */
export type WxUrlLinkData = z.infer<typeof WxUrlLinkData>;

/** The per-exam rules an author sets, stored with the exam and shown in its detail. */
export const ExamSettings = ExamDetail.pick({
  is_enterprise_logo: true,
  ico_name: true,
  systemLogoPath: true,
  is_paste: true,
  is_copy_question: true,
  is_upload_file: true,
  cutting_times: true,
  capture_interval: true,
  is_skip_camera: true,
  is_skip_microphone: true,
  is_skip_screen: true,
  is_skip_phone: true,
  is_close_camera: true,
  is_close_microphone: true,
  is_close_screen: true,
  is_close_phone: true,
  is_second_screen: true,
});
/** The per-exam rules. */
export type ExamSettings = z.infer<typeof ExamSettings>;
