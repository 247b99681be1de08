import { z } from 'zod';
import { RISK_EVENT_IDS } from '../enums.js';
import { ClientId, EpochMs, Id, IdParam } from './common.js';
import { AttemptView, RecordRiskBody } from './monitor.js';
import { ExamModeField, ExamPhaseField } from './exam.js';
import { AreaCodeField, PhoneField } from './user.js';

/** What a piece of evidence is. */
export const EVIDENCE_KINDS = [
  'first_picture',
  'frame',
  'screen',
  'phone',
  'signature',
  'pertinent',
  'byte',
  'face',
] as const;
/** What a piece of evidence is. */
export const EvidenceKindField = z.enum(EVIDENCE_KINDS);
/** What a piece of evidence is. */
export type EvidenceKind = z.infer<typeof EvidenceKindField>;

/** An object key as the browser sends it: plain path segments only. */
export const ObjectKeyField = z
  .string()
  .min(1)
  .max(300)
  .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, 'plain path segments only');

/** A SHA-256 digest, hex. */
export const Sha256Field = z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 digest in hex');

/** GET /sts/get-token query: the attempt the credentials are for. */
export const StsQuery = z.object({
  /** Exam id; the credentials cover the candidate's attempt at it. */
  exam_id: IdParam,
});
/** GET /sts/get-token query. */
export type StsQuery = z.input<typeof StsQuery>;

/** POST /monitor/capture body: a capture already uploaded to storage with the attempt's credentials. */
export const CaptureBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** frame (camera), screen, phone, signature; first pictures, pertinent moments and bytes have calls of their own. */
  kind: z.enum(['frame', 'screen', 'phone', 'signature']),
  /** Object key under the attempt's prefix. */
  key: ObjectKeyField,
  /** SHA-256 of the bytes uploaded. */
  sha256: Sha256Field,
  /** When it was taken (epoch ms, server-aligned clock). */
  trigger_time: EpochMs,
  /** True when it was taken offline and uploaded on reconnect (an entry of offlineImages). */
  offline: z.boolean().optional(),
  /** Makes a retried record idempotent. */
  client_id: ClientId,
});
/** POST /monitor/capture body. */
export type CaptureBody = z.input<typeof CaptureBody>;

/** The monitor steps by step id, -5 (camera) to -1 (signature). */
export const MonitorStepField = z.union([z.literal(-5), z.literal(-4), z.literal(-3), z.literal(-2), z.literal(-1)]);

/** POST /monitor/check body: the outcome of one device check. */
export const CheckBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** Step id: -5 camera, -4 microphone, -3 screenSharing, -2 mobileDevice, -1 signature. */
  step: MonitorStepField,
  /** passed, or skipped (only where the exam allows it; records risk 15 to 18). */
  result: z.enum(['passed', 'skipped']),
  /** Device id/label the check used (e.g. the microphone id). */
  device: z.string().max(300).optional(),
  /** Makes a retried record idempotent. */
  client_id: ClientId,
});
/** POST /monitor/check body. */
export type CheckBody = z.input<typeof CheckBody>;

/** One capture as the monitor data lists it. */
export const CaptureItem = z.object({
  /** Record id. */
  id: z.number().int(),
  /** Object key. */
  key: z.string(),
  /** When it was taken (epoch ms). */
  trigger_time: EpochMs,
  /** Always true on the server: a record exists only after its upload. */
  isSuccess: z.boolean(),
});

/** GET /monitor/state query. */
export const MonitorStateQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});

/** GET /monitor/state data: the attempt's monitor data, under the names the candidate client keeps them by. */
export const MonitorStateData = z.object({
  /** Key of the first picture, or null. */
  firstPicture: z.string().nullable(),
  /** Microphone used in the check, or null. */
  microphoneId: z.string().nullable(),
  /** 1 while the phone page is sending pictures, else 0. */
  mobileDeviceStatus: z.union([z.literal(0), z.literal(1)]),
  /** Key of the signature image, or null. */
  signature: z.string().nullable(),
  /** Camera frames. */
  frames: z.array(CaptureItem),
  /** Pertinent moments. */
  pertinents: z.array(z.object({ id: z.number().int(), time: EpochMs })),
  /** Microphone recordings. */
  bytes: z.array(z.object({ id: z.number().int(), time: EpochMs })),
  /** Captures taken offline and uploaded later. */
  offlineImages: z.number().int(),
  /** Steps already passed or skipped (step ids). */
  checks: z.array(z.object({ step: MonitorStepField, result: z.enum(['passed', 'skipped']) })),
  /** Seconds between captures for this exam. */
  capture_interval: z.number().int(),
  /** When the phone last sent a picture (epoch ms), or null. */
  phone_seen_at: EpochMs.nullable(),
});
/** GET /monitor/state data. */
export type MonitorStateData = z.infer<typeof MonitorStateData>;

/** POST /monitor/fast-record-risk form: as record-risk, answered without the screen-switch bookkeeping (also sent on unload). */
export const FastRecordRiskBody = RecordRiskBody;

/** GET /common/mini-qrcode query. */
export const MiniQrcodeQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
  /** The candidate's invitation. */
  anid: IdParam,
});

/** GET /common/mini-qrcode data: the phone page's link as a QR code. */
export const MiniQrcodeData = z.object({
  /** The QR code as an SVG data URL. */
  image: z.string(),
  /** The link it encodes. */
  url: z.string(),
  /** When the link stops working (epoch ms). */
  expires_at: EpochMs,
});
/** GET /common/mini-qrcode data. */
export type MiniQrcodeData = z.infer<typeof MiniQrcodeData>;

/** GET /phone/session data: what the phone page needs (its token comes from the QR link). */
export const PhoneSessionData = z.object({
  /** Exam id. */
  exam_id: z.number().int(),
  /** Exam name. */
  exam_name: z.string(),
  /** Seconds between pictures. */
  capture_interval: z.number().int(),
  /** Phase of the attempt. */
  phase: ExamPhaseField,
  /** When the attempt ends (epoch ms), or null before the exam phase. */
  end_time: EpochMs.nullable(),
  /** Server time (epoch ms). */
  server_time: EpochMs,
});
/** GET /phone/session data. */
export type PhoneSessionData = z.infer<typeof PhoneSessionData>;

/** POST /phone/picture body: a phone picture already uploaded with the phone's credentials. */
export const PhonePictureBody = z.object({
  /** Object key under the attempt's prefix. */
  key: ObjectKeyField,
  /** SHA-256 of the bytes. */
  sha256: Sha256Field,
  /** When it was taken (epoch ms). */
  trigger_time: EpochMs,
  /** Makes a retried record idempotent. */
  client_id: ClientId,
});
/** POST /phone/picture body. */
export type PhonePictureBody = z.input<typeof PhonePictureBody>;

/** A proctor's warning as the candidate sees it. */
export const WarningView = z.object({
  /** Warning id. */
  id: z.number().int(),
  /** The text. */
  text: z.string(),
  /** When it was sent (epoch ms). */
  time: EpochMs,
  /** When the candidate acknowledged it (epoch ms, the first time only), or null while unread. */
  read_at: EpochMs.nullable(),
});
/** A proctor's warning. */
export type WarningView = z.infer<typeof WarningView>;

/** POST /monitor/warning-read body: the candidate acknowledged a warning (a repeat changes nothing). */
export const WarningReadBody = z.object({
  /** Exam id. */
  exam_id: Id,
  /** The warning acknowledged. */
  warning_id: Id,
});
/** POST /monitor/warning-read body. */
export type WarningReadBody = z.input<typeof WarningReadBody>;

/** Events on the candidate's live stream (GET /monitor/events, server-sent events, one JSON object per `data:`). */
export const CandidateEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), server_time: EpochMs }),
  z.object({ type: z.literal('warning'), warning: WarningView }),
  z.object({ type: z.literal('ended'), attempt: AttemptView, reason: z.string() }),
  z.object({ type: z.literal('phone'), mobileDeviceStatus: z.union([z.literal(0), z.literal(1)]) }),
]);
/** An event on the candidate's live stream. */
export type CandidateEvent = z.infer<typeof CandidateEvent>;

/** GET /monitor/events query. */
export const CandidateEventsQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});

/** A proctor's decision on a flag. */
export const FlagDecisionField = z.enum(['confirmed', 'dismissed']);
/** A proctor's decision on a flag. */
export type FlagDecision = z.infer<typeof FlagDecisionField>;

/** One record of an attempt's integrity log (risk events and evidence, in chain order). */
export const IntegrityRecord = z.object({
  /** Record id. */
  id: z.number().int(),
  /** 'risk' for a risk event, else the evidence kind. */
  kind: z.union([z.literal('risk'), EvidenceKindField, z.literal('check')]),
  /** Risk event id (0 for evidence). */
  risk: z.number().int(),
  /** Risk category (RiskCategory). */
  category: z.number().int(),
  /** When it happened (epoch ms). */
  trigger_time: EpochMs,
  /** Detail text. */
  detail: z.string(),
  /** Picture/recording URL to view it (short-lived), or null. */
  image_url: z.string().nullable(),
  /** The proctor's decision, or null while open (risk records only). */
  decision: FlagDecisionField.nullable(),
  /** The proctor's internal note on the decision: staff only, never sent to the candidate. */
  decision_note: z.string(),
  /** The proctor's note to the candidate, shown in their integrity log. */
  candidate_note: z.string(),
  /** Hash in the attempt's chain, hex. */
  hash: z.string(),
});
/** One record of an integrity log. */
export type IntegrityRecord = z.infer<typeof IntegrityRecord>;

/** One record of the candidate's own integrity log: the staff record without the internal note. */
export const CandidateIntegrityRecord = IntegrityRecord.omit({ decision_note: true });
/** One record of the candidate's own integrity log. */
export type CandidateIntegrityRecord = z.infer<typeof CandidateIntegrityRecord>;

/** GET /monitor/integrity-log data: the candidate's own log, after the exam. */
export const IntegrityLogData = z.object({
  /** Records in order. */
  records: z.array(CandidateIntegrityRecord),
  /** Warnings received. */
  warnings: z.array(WarningView),
});
/** GET /monitor/integrity-log data. */
export type IntegrityLogData = z.infer<typeof IntegrityLogData>;

/** A proctored exam in the console's list. */
export const ProctorExamItem = z.object({
  /** Exam id. */
  id: z.number().int(),
  /** Name. */
  name: z.string(),
  /** Mode. */
  mode: ExamModeField,
  /** Window start (epoch ms). */
  start_at: EpochMs,
  /** Window end (epoch ms). */
  end_at: EpochMs,
  /** Attempts started. */
  attempts: z.number().int(),
  /** Attempts in progress. */
  in_progress: z.number().int(),
  /** Risk records without a decision. */
  open_flags: z.number().int(),
});

/** GET /admin/proctor/exams data. */
export const ProctorExamsData = z.object({ list: z.array(ProctorExamItem) });
/** GET /admin/proctor/exams data. */
export type ProctorExamsData = z.infer<typeof ProctorExamsData>;

/** One tile of the proctor's live grid. */
export const ProctorTile = z.object({
  /** Attempt id. */
  attempt_id: z.number().int(),
  /** Candidate's name (or masked phone when no name is set). */
  name: z.string(),
  /** Candidate's phone, masked. */
  phone: z.string(),
  /** Phase. */
  phase: ExamPhaseField,
  /** End time (epoch ms), null before the exam phase. */
  end_time: EpochMs.nullable(),
  /** Risk records so far. */
  risk_count: z.number().int(),
  /** Risk records without a decision. */
  open_flags: z.number().int(),
  /** True while the candidate's page is connected. */
  online: z.boolean(),
  /** Last contact (epoch ms), or null. */
  last_seen: EpochMs.nullable(),
  /** URL of the latest camera picture (short-lived), or null. */
  picture_url: z.string().nullable(),
  /** 1 while the phone is sending pictures. */
  mobileDeviceStatus: z.union([z.literal(0), z.literal(1)]),
});
/** One tile of the live grid. */
export type ProctorTile = z.infer<typeof ProctorTile>;

/** GET /admin/proctor/grid query (also the stream's). */
export const ProctorExamQuery = z.object({
  /** Exam id. */
  exam_id: IdParam,
});

/** Which tiles the grid shows: all, those with risk records, open flags, offline (not submitted), or phone lost. */
export const GRID_FILTERS = ['all', 'risk', 'flags', 'offline', 'phone_lost'] as const;
/** Which tiles the grid shows. */
export type GridFilter = (typeof GRID_FILTERS)[number];
/** How the grid is ordered: by attempt (start order), most risk records, most open flags, or name. */
export const GRID_SORTS = ['attempt', 'risk', 'flags', 'name'] as const;
/** How the grid is ordered. */
export type GridSort = (typeof GRID_SORTS)[number];
/** The most tiles one page of the grid holds. */
export const GRID_PAGE_MAX = 200;

/** GET /admin/proctor/grid query: the exam, a filter, an order and a page. */
export const ProctorGridQuery = ProctorExamQuery.extend({
  /** Which tiles (default all). */
  filter: z.enum(GRID_FILTERS).default('all'),
  /** Order (default attempt). */
  sort: z.enum(GRID_SORTS).default('attempt'),
  /** Page, from 1. */
  page: z.coerce.number().int().min(1).default(1),
  /** Tiles per page. */
  page_size: z.coerce.number().int().min(1).max(GRID_PAGE_MAX).default(100),
});
/** GET /admin/proctor/grid query. */
export type ProctorGridQuery = z.input<typeof ProctorGridQuery>;

/** A risk record with its attempt, as the grid's feed lists it. */
export const ProctorFeedItem = z.object({
  /** Attempt id. */
  attempt_id: z.number().int(),
  /** Candidate's name (or masked phone). */
  name: z.string(),
  /** The record. */
  record: IntegrityRecord,
});
/** A risk record with its attempt. */
export type ProctorFeedItem = z.infer<typeof ProctorFeedItem>;

/** GET /admin/proctor/grid data. */
export const ProctorGridData = z.object({
  /** The exam's name. */
  exam_name: z.string(),
  /** The page's tiles. */
  tiles: z.array(ProctorTile),
  /** Tiles matching the filter, on every page. */
  total: z.number().int(),
  /** Tiles each filter matches, for the filter's labels. */
  counts: z.object({
    all: z.number().int(),
    risk: z.number().int(),
    flags: z.number().int(),
    offline: z.number().int(),
    phone_lost: z.number().int(),
  }) satisfies z.ZodType<Record<GridFilter, number>>,
  /** Flags still waiting for a decision, newest first (at most 50): the feed before anything new arrives. */
  pending: z.array(ProctorFeedItem),
  /** True when the exam keeps the phone (second view) check: without it no tile has a phone to show. */
  phone_check: z.boolean(),
  /**
   * True while the local store's disk is down to the reserve kept for answers, with no room left for the largest
   * picture or recording: uploads are refused (503 storage_full) and candidates' pages keep them until there is.
   */
  storage_full: z.boolean(),
  /** Server time (epoch ms). */
  server_time: EpochMs,
});
/** GET /admin/proctor/grid data. */
export type ProctorGridData = z.infer<typeof ProctorGridData>;

/** Events on the proctor's live stream (GET /admin/proctor/stream, server-sent events). */
export const ProctorEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), server_time: EpochMs }),
  z.object({ type: z.literal('tile'), tile: ProctorTile }),
  z.object({ type: z.literal('risk'), attempt_id: z.number().int(), record: IntegrityRecord }),
]);
/** An event on the proctor's live stream. */
export type ProctorEvent = z.infer<typeof ProctorEvent>;

/** GET /admin/proctor/attempt query. */
export const ProctorAttemptQuery = z.object({
  /** Attempt id. */
  attempt_id: IdParam,
});

/** GET /admin/proctor/attempt data: one attempt's timeline. */
export const ProctorAttemptData = z.object({
  /** The tile. */
  tile: ProctorTile,
  /** Exam id. */
  exam_id: z.number().int(),
  /** Records in chain order, with pictures. */
  records: z.array(IntegrityRecord),
  /** Warnings sent. */
  warnings: z.array(WarningView),
  /** Why the attempt ended, or null while open. */
  finish_reason: z.string().nullable(),
  /** Link to the ID photo of the attempt's invitation (short-lived), or null when it has none. */
  id_photo_url: z.string().nullable(),
});
/** GET /admin/proctor/attempt data. */
export type ProctorAttemptData = z.infer<typeof ProctorAttemptData>;

/** POST /admin/proctor/warn body. */
export const WarnBody = z.object({
  /** Attempt id. */
  attempt_id: Id,
  /** What the candidate reads. */
  text: z.string().trim().min(1).max(500),
});
/** POST /admin/proctor/warn body. */
export type WarnBody = z.input<typeof WarnBody>;

/** POST /admin/proctor/end body. */
export const EndAttemptBody = z.object({
  /** Attempt id. */
  attempt_id: Id,
  /** Why, kept in the audit log and shown to the candidate. */
  reason: z.string().trim().min(1).max(500),
});
/** POST /admin/proctor/end body. */
export type EndAttemptBody = z.input<typeof EndAttemptBody>;

/** POST /admin/proctor/decide body. */
export const DecideBody = z.object({
  /** Risk record id. */
  record_id: Id,
  /** confirmed or dismissed. */
  decision: FlagDecisionField,
  /** Why, for staff only: never shown to the candidate. */
  note: z.string().trim().max(1000).default(''),
  /** A note to the candidate, shown in their integrity log after the exam. */
  candidate_note: z.string().trim().max(1000).default(''),
});
/** POST /admin/proctor/decide body. */
export type DecideBody = z.input<typeof DecideBody>;

/**
 * POST /admin/proctor/id-photo form: whose ID photo it is, the picture (JPEG or PNG) in field id_photo.
 * The invitation is named by an attempt at the exam, or by the phone invited (before any attempt exists).
 */
export const IdPhotoFields = z
  .object({
    /** Exam id. */
    exam_id: IdParam,
    /** An attempt at the exam; its invitation gets the photo. */
    attempt_id: IdParam.optional(),
    /** The invited phone, when no attempt is named. */
    phone: PhoneField.optional(),
    /** The phone's calling code. */
    area_code: AreaCodeField,
  })
  .refine((v) => (v.attempt_id === undefined) !== (v.phone === undefined), {
    path: ['attempt_id'],
    message: 'name either attempt_id or phone',
  });
/** POST /admin/proctor/id-photo form. */
export type IdPhotoFields = z.input<typeof IdPhotoFields>;

/** POST /admin/proctor/id-photo data: the invitation's ID photo as stored. */
export const IdPhotoData = z.object({
  /** The invitation (anid) the photo belongs to. */
  invitation_id: z.number().int(),
  /** SHA-256 of the stored picture, hex. */
  sha256: z.string(),
  /** Link to view it (short-lived), or null when the store cannot sign one. */
  id_photo_url: z.string().nullable(),
});
/** POST /admin/proctor/id-photo data. */
export type IdPhotoData = z.infer<typeof IdPhotoData>;

/** GET /admin/evidence/verify query. */
export const VerifyEvidenceQuery = z.object({
  /** Attempt id. */
  attempt_id: IdParam,
});

/** GET /admin/evidence/verify data (also what `examhall verify-evidence` prints). */
export const VerifyEvidenceData = z.object({
  /** True when the chain and every file check out. */
  ok: z.boolean(),
  /** Records in the chain. */
  records: z.number().int(),
  /** Evidence files checked. */
  files: z.number().int(),
  /** Problems found, one per record or file. */
  problems: z.array(
    z.object({
      /** Record id. */
      record_id: z.number().int(),
      /** chain (hash or link wrong), missing (file gone) or digest (file changed). */
      kind: z.enum(['chain', 'missing', 'digest']),
      /** What is wrong. */
      detail: z.string(),
    }),
  ),
});
/** GET /admin/evidence/verify data. */
export type VerifyEvidenceData = z.infer<typeof VerifyEvidenceData>;

/** Risk ids a browser can raise (not the skips, which the server records from checks). */
export const BROWSER_RISK_IDS = RISK_EVENT_IDS.filter((id) => ![0, 15, 16, 17, 18].includes(id));
