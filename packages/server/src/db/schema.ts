import type { Generated } from 'kysely';

/** Candidates: people who log in with a phone number. */
export interface CandidateTable {
  id: Generated<number>;
  area_code: string;
  phone: string;
  name: string | null;
  school: string | null;
  major: string | null;
  degree: string | null;
  graduation_year: number | null;
  created_at: number;
  last_login_at: number | null;
  /** Email, or ''. */
  email: Generated<string>;
  /** JSON object of custom fields (column -> value). */
  custom: Generated<string>;
}

/** Which teams see a candidate in their directory. */
export interface CandidateTeamTable {
  team_id: number;
  candidate_id: number;
  /** The staff member who added the candidate to the team, or null. */
  added_by: number | null;
  added_at: number;
}

/** Staff accounts: admin, author, proctor, grader. */
export interface StaffTable {
  id: Generated<number>;
  area_code: string;
  phone: string;
  name: string;
  role: string;
  password_hash: string;
  disabled: number;
  created_at: number;
  /** The team the account belongs to, or null. */
  team_id: Generated<number | null>;
  /** The confirmed TOTP secret (base32), or null when the account has no second factor. */
  totp_secret: Generated<string | null>;
  /** A TOTP secret enrolled but not yet confirmed with a code. */
  totp_pending_secret: Generated<string | null>;
  /** The last TOTP time step accepted: a code is good once. */
  totp_last_step: Generated<number | null>;
}

/** A group of the identity provider mapped to a team and role (migration 041). */
export interface SsoGroupMappingTable {
  id: Generated<number>;
  group_name: string;
  /** Null only for the admin role. */
  team_id: number | null;
  role: string;
  created_at: number;
}

/** Which account a provider's subject signs in as. */
export interface StaffIdentityTable {
  /** 'oidc' or 'saml'. */
  method: string;
  /** The provider's issuer (OpenID Connect) or entity id (SAML). */
  issuer: string;
  /** Its `sub` claim or NameID. */
  subject: string;
  staff_id: number;
  created_at: number;
  last_sign_in_at: number;
}

/** A sign-in started and not yet answered: its checks, kept server-side. */
export interface SsoRequestTable {
  /** SHA-256 of the state (OpenID Connect) or of the request id (SAML). */
  key_hash: string;
  method: string;
  nonce: string | null;
  code_verifier: string | null;
  /** The console path to go to once signed in. */
  redirect: string;
  expires_at: number;
}

/** SAML assertion ids accepted, kept until they expire, so that none is accepted twice. */
export interface SsoAssertionTable {
  assertion_id: string;
  expires_at: number;
}

/** Login tries per phone in the current window (known account or not), reserved before the password check. */
export interface StaffLoginTryTable {
  phone: string;
  tries: number;
  /** When the window ends (epoch ms); a try after it starts a new one. */
  window_ends: number;
}

/** One-time recovery codes of a staff account's second factor, stored as SHA-256 hashes. */
export interface StaffRecoveryCodeTable {
  id: Generated<number>;
  staff_id: number;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** Teams: authors see and change their team's exams and bank; proctors and graders work on assigned exams. */
export interface TeamTable {
  id: Generated<number>;
  name: string;
  created_at: number;
}

/** Proctors and graders assigned to an exam; `role` is 'proctor' or 'grader'. */
export interface ExamStaffTable {
  exam_id: number;
  staff_id: number;
  role: string;
  created_at: number;
}

/** Tokens, stored only as SHA-256 hashes; `kind` keeps candidate and staff tokens apart. */
export interface AuthTokenTable {
  token_hash: string;
  kind: string;
  subject_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** A staff session's id, which names it to its owner without being the token (null: other kinds, older tokens). */
  session_id: string | null;
  /** How a staff session was signed in to (StaffSignInMethod). */
  method: string | null;
  /** The address and browser it was signed in from. */
  ip: string | null;
  user_agent: string | null;
  /** When it was last used, to within a few minutes (epoch ms). */
  last_seen_at: number | null;
}

/** SMS login codes, stored only as hashes. */
export interface SmsCodeTable {
  id: Generated<number>;
  area_code: string;
  phone: string;
  code_hash: string;
  ip: string;
  created_at: number;
  expires_at: number;
  attempts: number;
  consumed_at: number | null;
  /** When the code goes (or went) to the provider; null on codes from before pacing, sent when created. */
  send_at: number | null;
  /** When the provider refused the code; such a code holds no limit. */
  failed_at: number | null;
}

/** Exams. `settings` is JSON of the per-exam flags (is_paste, cutting_times, ...). */
export interface ExamTable {
  id: Generated<number>;
  name: string;
  description: string;
  mode: number;
  time_minutes: number;
  start_at: number;
  end_at: number;
  settings: string;
  created_at: number;
  /** The team the exam belongs to; null: no team, only admins see it. */
  team_id: Generated<number | null>;
  /** 'draft' (never published), 'published' or 'archived'. */
  status: Generated<string>;
  /** The editable draft: JSON of an ExamDefinition. */
  draft: string | null;
  /** The version candidates get, null before the first publish. */
  published_version_id: Generated<number | null>;
  /** Bumped by every save of the draft; a save names the revision it edited. */
  revision: Generated<number>;
  /** When the draft or status last changed (epoch ms). */
  updated_at: Generated<number>;
  /** Staff id of the creator, null for exams made before the editor. */
  created_by: Generated<number | null>;
  /** Who puts candidates into time slots: 'assigned' (staff) or 'chosen' (each candidate). */
  slot_mode: Generated<string>;
  /** JSON of the exam's Safe Exam Browser requirement as candidates' calls read it; null: none (migration 042). */
  seb: Generated<string | null>;
}

/** Frozen versions of an exam: published ones (numbered 1, 2, ...) and previews, which count nowhere. */
export interface ExamVersionTable {
  id: Generated<number>;
  exam_id: number;
  number: number;
  /** JSON of the ExamDefinition it froze (draws as rules; the questions are in `questions`). */
  definition: string;
  published_at: number;
  published_by: number | null;
  /** 1 for a preview version. */
  preview: Generated<number>;
  /** Corrections of its frozen keys so far (a cached copy with a lower count is out of date). */
  key_revision: Generated<number>;
}

/** Sections of an exam: linetest, major, evaluation. */
export interface ExamSectionTable {
  id: Generated<number>;
  exam_id: number;
  kind: string;
  title: string;
  order_num: number;
  /** The version the section belongs to. */
  version_id: Generated<number | null>;
  /** How many of its questions each candidate draws; null: every one (a fixed section). */
  draw_count: Generated<number | null>;
}

/** Questions. `content` is what the candidate may see; `answer_key` never leaves the server. */
export interface QuestionTable {
  id: Generated<number>;
  exam_id: number;
  section_id: number;
  /** The question's kind (the typed model's discriminator, see QUESTION_REGISTRY); '' for a row of no kind. */
  kind: string;
  type: number;
  order_num: number;
  score: number;
  content: string;
  answer_key: string;
  /** The bank question this frozen copy was made from, when it came from the bank. */
  bank_question_id: Generated<number | null>;
  /** The version this copy is frozen in. */
  version_id: Generated<number | null>;
  /** JSON of its explanation and feedback per option (QuestionExplanation), frozen with it; null: none. */
  explanation: Generated<string | null>;
}

/** Invitations of a phone number to an exam; the id is the `anid`. */
export interface InvitationTable {
  id: Generated<number>;
  exam_id: number;
  area_code: string;
  phone: string;
  extra_minutes: number;
  created_at: number;
  /** Object key of the ID photo face checks compare with, or null. */
  id_photo_key: Generated<string | null>;
  /** SHA-256 of the ID photo, hex, or null. */
  id_photo_sha256: Generated<string | null>;
  /** 1 for a staff member's preview invitation, which counts nowhere. */
  preview: Generated<number>;
  /** The preview version a preview invitation opens; null: the exam's published version. */
  version_id: Generated<number | null>;
  /** When staff revoked it (epoch ms): a revoked invitation opens nothing and gets no more texts. */
  revoked_at: Generated<number | null>;
  /** Why it was revoked ('' while it stands). */
  revoke_reason: Generated<string>;
  /** The time slot the candidate sits in, or null (the exam's window). */
  slot_id: Generated<number | null>;
  /** How extra time is given: 'minutes' (`extra_minutes`) or 'percent' (`extra_percent` of the exam's length). */
  extra_mode: Generated<string>;
  /** Extra time as a percentage of the exam's length, when `extra_mode` is 'percent'. */
  extra_percent: Generated<number>;
  /** Start of the candidate's personal window (epoch ms), overriding slot and exam window; null: none. */
  window_start: Generated<number | null>;
  /** End of the personal window (epoch ms); set together with `window_start`. */
  window_end: Generated<number | null>;
}

/** SMS texts to invited candidates: one row per text with its delivery state; one per (invitation, dedupe_key). */
export interface SmsMessageTable {
  id: Generated<number>;
  invitation_id: number;
  exam_id: number;
  area_code: string;
  phone: string;
  /** 'invitation', 'reminder' or 'resend'. */
  purpose: string;
  /** What makes the text unique for its invitation: 'invitation', 'reminder:60', 'resend:2'. */
  dedupe_key: string;
  body: string;
  /** 'queued', 'sending', 'sent', 'failed', 'cancelled' or 'held' (a budget kept it from going out). */
  state: string;
  tries: Generated<number>;
  last_error: string | null;
  /** When the text may be (re)tried (epoch ms). */
  next_try_at: number;
  /** While 'sending': until when the sender holds it; past it, the text is sent again under the same id. */
  lease_until: number | null;
  created_at: number;
  sent_at: number | null;
  /** Staff id of who caused it, null for the system (reminders). */
  created_by: number | null;
  /** The budget that held it back (state 'held'): one of the contract's SMS_LIMITS; null otherwise. */
  held_by: Generated<string | null>;
}

/** Texts' budgets: one counter per budget and subject, within its window (services/smsBudget.ts). */
export interface SmsBudgetTable {
  /** '<limit>:<subject>', e.g. 'resend_interval:42', 'phone_daily:86 13800138000'. */
  key: string;
  /** Texts counted in the current window. */
  used: number;
  /** When the window ends (epoch ms); past it the counter starts again from nothing. */
  window_ends: number;
}

/** Each exam's texts: the invitation and reminder templates and the reminder times. */
export interface ExamSmsTable {
  exam_id: number;
  invitation_template: string;
  reminder_template: string;
  /** JSON array of minutes before the window opens. */
  reminder_minutes: string;
  updated_at: number;
  updated_by: number | null;
}

/** Time slots inside an exam's window, each with a number of seats. */
export interface ExamSlotTable {
  id: Generated<number>;
  exam_id: number;
  /** A name candidates see, e.g. 'Morning'. */
  label: Generated<string>;
  start_at: number;
  end_at: number;
  /** Seats: how many invitations may sit in it. */
  capacity: number;
  created_at: number;
}

/** Who did what, for staff actions and sign-ins. */
export interface AuditLogTable {
  id: Generated<number>;
  actor_kind: string;
  actor_id: number | null;
  action: string;
  target: string;
  detail: string;
  created_at: number;
  /** The actor's name at the time ('' for the system). */
  actor_name: Generated<string>;
  /** Kind of the object acted on, e.g. 'staff', 'exam'. */
  object_kind: Generated<string>;
  /** Id of the object acted on, or null. */
  object_id: Generated<number | null>;
  /** JSON of the object before the change; null for a create. */
  before: Generated<string | null>;
  /** JSON of the object after the change; null for a delete. */
  after: Generated<string | null>;
}

/** Settings the processes share, e.g. the secret that signs media links. */
export interface AppSettingTable {
  key: string;
  value: string;
}

/** Attempts: one candidate's run of one exam. */
export interface AttemptTable {
  id: Generated<number>;
  exam_id: number;
  candidate_id: number;
  invitation_id: number;
  mode: number;
  phase: number;
  created_at: number;
  started_at: number | null;
  end_at: number | null;
  finished_at: number | null;
  finish_reason: string | null;
  score: number | null;
  max_score: number | null;
  cuts_used: Generated<number>;
  /** Key of the first camera picture, once recorded. */
  first_picture_key: Generated<string | null>;
  /** Key of the signature image, once recorded. */
  signature_key: Generated<string | null>;
  /** Microphone the device check used. */
  microphone_id: Generated<string | null>;
  /** When the phone page last reported (epoch ms). */
  phone_seen_at: Generated<number | null>;
  /** When the candidate's page last held its live stream open (epoch ms); presence on the proctor console. */
  last_seen_at: Generated<number | null>;
  /** Why a proctor ended the attempt, in the proctor's words ('' otherwise). */
  finish_note: Generated<string>;
  /** The exam version the attempt runs on. */
  version_id: Generated<number | null>;
  /** JSON array of the question ids the attempt got, in its order (draws, shuffles); null: every question of the version. */
  question_ids: Generated<string | null>;
  /** 1 for a preview attempt, which counts nowhere (proctor grids, results). */
  preview: Generated<number>;
  /** Points of the linetest section, kept with the per-question rows (GradingRepository.keepTotals). */
  linetest_points: Generated<number>;
  /** What the linetest section is worth. */
  linetest_max: Generated<number>;
  /** Points of the major section. */
  major_points: Generated<number>;
  /** What the major section is worth. */
  major_max: Generated<number>;
  /** Answers waiting for a grader's final mark. */
  pending_marks: Generated<number>;
  /** The ranking's key by total: the score in hundredths of a point (ties compare so). */
  rank_total: Generated<number>;
  /** The ranking's key by the linetest section, in hundredths. */
  rank_linetest: Generated<number>;
  /** The ranking's key by the major section, in hundredths. */
  rank_major: Generated<number>;
  /** How many times its scores (and kept totals) were written: the item analysis's sign of change. */
  score_writes: Generated<number>;
}

/** The latest answer per question, with its version. */
export interface AnswerTable {
  attempt_id: number;
  question_id: number;
  value: string;
  version: number;
  seq: number;
  saved_at: number;
}

/** Every answer change and answer event, as received. */
export interface AnswerEventTable {
  id: Generated<number>;
  attempt_id: number;
  question_id: number;
  client_id: string;
  seq: number;
  event: number | null;
  value: string | null;
  version: number;
  changed_at: number;
  received_at: number;
}

/** Plays of a listening question's audio. */
export interface AudioPlayTable {
  attempt_id: number;
  question_id: number;
  play_count: number;
  last_played_at: number;
}

/** Risk events of an attempt, hash-chained. */
export interface RiskRecordTable {
  id: Generated<number>;
  attempt_id: number;
  risk: number;
  category: number;
  trigger_time: number;
  detail: string;
  image_key: string | null;
  client_id: string;
  prev_hash: string;
  hash: string;
  created_at: number;
  /** 'risk', 'check' or an evidence kind. */
  kind: Generated<string>;
  /** SHA-256 of the evidence file (hex), null without one. */
  sha256: Generated<string | null>;
  /** Size of the evidence file in bytes. */
  size: Generated<number | null>;
  /** The proctor's decision on a risk flag: confirmed or dismissed; null while open. Not chained. */
  decision: Generated<string | null>;
  /** Why the proctor decided so: internal, never shown to the candidate. Not chained. */
  decision_note: Generated<string>;
  /** The proctor's note to the candidate, shown in their integrity log. Not chained. */
  candidate_note: Generated<string>;
  /** Staff id of the proctor who decided. */
  decided_by: Generated<number | null>;
  /** When the decision was made (epoch ms). */
  decided_at: Generated<number | null>;
}

/** Warnings proctors sent to a candidate during an attempt. */
export interface WarningTable {
  id: Generated<number>;
  attempt_id: number;
  staff_id: number;
  text: string;
  created_at: number;
  /** When the candidate's page acknowledged it (epoch ms), or null. */
  read_at: number | null;
}

/** Files in object storage and who owns them. */
export interface StoredFileTable {
  key: string;
  owner_kind: string;
  owner_id: number;
  file_name: string;
  mime: string;
  size: number;
  sha256: string;
  created_at: number;
}

/** An attempt's storage quota and what it has used, by storage prefix. */
export interface StorageUsageTable {
  prefix: string;
  max_bytes: number;
  max_objects: number;
  bytes: Generated<number>;
  objects: Generated<number>;
}

/** A candidate's resume. */
export interface ResumeTable {
  candidate_id: number;
  file_key: string;
  uploaded_at: number;
}

/** Feedback on an exam. */
export interface FeedbackTable {
  id: Generated<number>;
  exam_id: number;
  candidate_id: number;
  rating: number;
  content: string;
  client_id: string;
  created_at: number;
}

/** Positions recommended after an exam; `exam_id` null means after any exam. */
export interface PositionTable {
  id: Generated<number>;
  exam_id: number | null;
  title: string;
  department: string;
  city: string;
  description: string;
  min_ratio: number;
}

/** A run (samples or custom input) or submit (hidden cases) of a candidate's code. */
export interface JudgeRunTable {
  id: Generated<number>;
  attempt_id: number;
  question_id: number;
  job_id: string;
  mode: string;
  language: string;
  source: string;
  /** The candidate's own input of a run; null for a run on the samples and for a submit. */
  input: string | null;
  client_id: string;
  created_at: number;
  finished_at: number | null;
  verdict: string | null;
  passed: number | null;
  total: number;
  /** The JudgeData answered once done, as JSON (outputs of hidden cases never in it). */
  result: string | null;
}

/** Folders of the question bank: a tree per team (team null: no team, only admins see it). */
export interface BankFolderTable {
  id: Generated<number>;
  team_id: number | null;
  /** The parent folder, or null at the top. */
  parent_id: number | null;
  name: string;
  created_by: number;
  created_at: number;
}

/**
 * Questions of the bank. `content` and `answer_key` are the JSON of the typed body's content and key;
 * `stem_text` is the plain text of stem, options and passage, for substring search.
 */
export interface BankQuestionTable {
  id: Generated<number>;
  team_id: number | null;
  /** The folder, or null when the question is in no folder. */
  folder_id: number | null;
  kind: string;
  type: number;
  stem_text: string;
  content: string;
  answer_key: string;
  /** 1 (easy) to 5 (hard). */
  difficulty: number;
  /** JSON array of knowledge point names. */
  knowledge_points: string;
  default_score: number;
  author_id: number;
  /** Who changed it last. */
  editor_id: number;
  created_at: number;
  updated_at: number;
  /** Bumped by every change; an update names the revision it edited (optimistic concurrency). */
  revision: Generated<number>;
  /** JSON of the last reference-solution check of a programming question, or null. */
  verification: string | null;
  /** JSON of its explanation (解析) and feedback per option (QuestionExplanation), or null for none. */
  explanation: Generated<string | null>;
}

/** A question of an import waiting until the whole file is in (repositories/bankImports.ts): its bank columns. */
export type BankImportRowTable = Pick<
  BankQuestionTable,
  | 'kind'
  | 'type'
  | 'stem_text'
  | 'content'
  | 'answer_key'
  | 'difficulty'
  | 'knowledge_points'
  | 'default_score'
  | 'editor_id'
  | 'updated_at'
  | 'explanation'
> & {
  /** The import's key: 'job:<id>', or a random one for the command line's. */
  batch: string;
  seq: number;
  /** JSON array: the sub-folder path below the import's folder. */
  folder_path: string;
  /** Set from the path when the import is published. */
  folder_id: number | null;
  /** JSON array of tags. */
  tags: string;
};

/** Tags of bank questions. */
export interface BankQuestionTagTable {
  question_id: number;
  tag: string;
}

/** The database. */
export interface Database {
  warnings: WarningTable;
  judge_runs: JudgeRunTable;
  app_settings: AppSettingTable;
  attempts: AttemptTable;
  answers: AnswerTable;
  answer_events: AnswerEventTable;
  audio_plays: AudioPlayTable;
  risk_records: RiskRecordTable;
  stored_files: StoredFileTable;
  storage_usage: StorageUsageTable;
  resumes: ResumeTable;
  feedback: FeedbackTable;
  positions: PositionTable;
  candidates: CandidateTable;
  candidate_team: CandidateTeamTable;
  staff: StaffTable;
  sso_group_mappings: SsoGroupMappingTable;
  staff_identities: StaffIdentityTable;
  sso_requests: SsoRequestTable;
  sso_assertions: SsoAssertionTable;
  staff_login_tries: StaffLoginTryTable;
  staff_recovery_codes: StaffRecoveryCodeTable;
  auth_tokens: AuthTokenTable;
  sms_codes: SmsCodeTable;
  exams: ExamTable;
  exam_versions: ExamVersionTable;
  exam_sections: ExamSectionTable;
  questions: QuestionTable;
  invitations: InvitationTable;
  sms_messages: SmsMessageTable;
  sms_budget: SmsBudgetTable;
  exam_sms: ExamSmsTable;
  exam_slots: ExamSlotTable;
  audit_log: AuditLogTable;
  teams: TeamTable;
  exam_staff: ExamStaffTable;
  bank_folders: BankFolderTable;
  bank_questions: BankQuestionTable;
  bank_question_tags: BankQuestionTagTable;
  bank_import_rows: BankImportRowTable;
  job: JobTable;
  similarity_runs: SimilarityRunTable;
  similarity_pairs: SimilarityPairTable;
  question_scores: QuestionScoreTable;
  exam_grading: ExamGradingTable;
  grader_sections: GraderSectionTable;
  grading_marks: GradingMarkTable;
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: WebhookEventTable;
  webhook_deliveries: WebhookDeliveryTable;
  api_tokens: ApiTokenTable;
  item_flags: ItemFlagTable;
  item_analyses: ItemAnalysisTable;
  face_checks: FaceCheckTable;
}

/** The server's face check of one exam frame: a frame a browser flagged, or one of the sample of the others. */
export interface FaceCheckTable {
  id: Generated<number>;
  attempt_id: number;
  /** 'flagged' (a browser's risk record) or 'sampled'. */
  source: string;
  /** The risk record (flagged) or frame record (sampled) checked. */
  record_id: number;
  image_key: string;
  /** The browser's finding (its detail kind), null for a sampled frame. */
  browser_finding: string | null;
  /** 'pending', 'done', 'failed', or 'skipped' (a sample still pending once it said nothing timely any more). */
  status: string;
  tries: Generated<number>;
  /** Held by a checker until then (epoch ms). */
  lease_until: number | null;
  faces: number | null;
  phone_score: number | null;
  /** The server's finding (detail kind), null when it saw nothing wrong. */
  server_finding: string | null;
  /** 1 or 0 for a flagged frame, null for a sampled one. */
  agrees: number | null;
  /** The chain record the check wrote, if any. */
  result_record_id: number | null;
  created_at: number;
  checked_at: number | null;
}

/** Points of one question of one finished attempt: the one table final scores and item analysis read. */
export interface QuestionScoreTable {
  attempt_id: number;
  question_id: number;
  exam_id: number;
  /** 'auto' (scored by its kind's rule), 'judge' (judged code) or 'manual' (a grader's). */
  source: string;
  /** Points earned; null while a grader's answer waits for its final mark. */
  points: number | null;
  /** Points the question is worth in the exam. */
  max: number;
  updated_at: number;
}

/** A version's item analysis as its last job computed it (services/analysis.ts). */
export interface ItemAnalysisTable {
  version_id: number;
  exam_id: number;
  /** '<attempts>:<sum of their score_writes>' of the exam when the job read its scores. */
  basis: string;
  computed_at: number;
  /** JSON of the exam's figures and every scored question's. */
  data: string;
}

/** A frozen question the item analysis flagged for negative discrimination (the latest analysis of its version). */
export interface ItemFlagTable {
  question_id: number;
  exam_id: number;
  version_id: number;
  /** The bank question it was copied from, whose author is warned. */
  bank_question_id: number | null;
  /** Item-rest correlation at the time (null when undefined). */
  item_rest: number | null;
  /** Upper-lower 27 % index at the time (null when undefined). */
  upper_lower: number | null;
  /** Attempts it was computed over. */
  n: number;
  flagged_at: number;
}

/** How an exam is graded; an exam without a row has the defaults (one grader, not blind). */
export interface ExamGradingTable {
  exam_id: number;
  /** 1: graders see no name, phone or school until every answer is graded. */
  blind: number;
  /** 1: each answer is marked by two different graders. */
  double_marking: number;
  /** Two marks further apart than this go to reconciliation. */
  margin: number;
  updated_at: number;
  updated_by: number | null;
}

/** The sections a grader of an exam is limited to (no row: the whole exam). */
export interface GraderSectionTable {
  exam_id: number;
  staff_id: number;
  section: string;
}

/** A grader's mark of one answer. */
export interface GradingMarkTable {
  id: Generated<number>;
  attempt_id: number;
  question_id: number;
  exam_id: number;
  grader_id: number;
  /** JSON array of points per criterion. */
  criteria: string;
  /** Points on the question's points in the exam. */
  total: number;
  comment: string;
  /** 1 for the mark that settles two marks too far apart. */
  reconciling: number;
  created_at: number;
}

/** A long or background job: its state, progress and result; the lease of the runner that holds it. */
export interface JobTable {
  id: Generated<number>;
  kind: string;
  /** JSON the handler reads. */
  payload: string;
  owner_staff_id: number | null;
  team_id: number | null;
  /** queued, running, done, failed or cancelled. */
  state: string;
  progress_done: Generated<number>;
  progress_total: Generated<number>;
  progress_phase: string | null;
  /** JSON: where the last checkpoint left the handler. */
  cursor: string | null;
  /** JSON of the handler's result. */
  result: string | null;
  error_code: string | null;
  error_message: string | null;
  /** 1 once someone asked to cancel. */
  cancel_requested: Generated<number>;
  /** The exam the job works on, when it works on one: its assigned proctors and graders follow the job. */
  exam_id: number | null;
  attempts: Generated<number>;
  /** The runner holding the job while it runs. */
  locked_by: string | null;
  /** Until when (ms) that runner holds it; after that another runner may take it over. */
  lease_until: number | null;
  /** The id of the request that created it (its log lines carry it); null for the system's own. */
  request_id: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

/** The last code-similarity computation of a programming question. */
export interface SimilarityRunTable {
  question_id: number;
  exam_id: number;
  job_id: number | null;
  /** Attempts whose code was compared. */
  submissions: number;
  /** JSON array of groups of three or more: `[{attempt_ids, pairs, max_score}]`. */
  groups: string;
  /** JSON per language: submissions compared and how many hold each shared fingerprint (migration 038). */
  rarity: Generated<string>;
  computed_at: number;
}

/** A pair of attempts whose code for one question is alike, with the flag a grader decides. */
export interface SimilarityPairTable {
  id: Generated<number>;
  exam_id: number;
  question_id: number;
  /** The smaller attempt id. */
  attempt_a: number;
  attempt_b: number;
  language: string;
  score: number;
  share_a: number;
  share_b: number;
  matched: number;
  /** 'open', 'confirmed' or 'dismissed'. */
  status: Generated<string>;
  note: Generated<string>;
  decided_by: number | null;
  decided_at: number | null;
  computed_at: number;
}

/** Where final scores are posted: every exam's (team_id null) or one team's. */
export interface WebhookEndpointTable {
  id: Generated<number>;
  url: string;
  /** The HMAC key, as the admin typed it (never answered, never audited). */
  secret: string;
  team_id: number | null;
  description: Generated<string>;
  /** 1 while events are delivered to it. */
  enabled: number;
  created_by: number | null;
  created_at: number;
  updated_at: number;
}

/** The outbox: one row per event, written in the transaction that made it happen. */
export interface WebhookEventTable {
  id: Generated<number>;
  /** 'attempt.scored' or 'ping'. */
  event: string;
  attempt_id: number | null;
  exam_id: number | null;
  score: number | null;
  max_score: number | null;
  /** The JSON posted, frozen on the first try. */
  body: string | null;
  created_at: number;
  /** 1 while it is its attempt's latest event, which the log's pruning keeps whatever its age (a new score is compared with it). */
  latest: Generated<number>;
}

/** One event to one endpoint: its state and tries. */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  event_id: number;
  endpoint_id: number;
  /** 'pending', 'delivered' or 'failed'. */
  status: string;
  attempts: Generated<number>;
  /** When the next try is due (pending). */
  next_at: number | null;
  /** Held by a deliverer until then. */
  lease_until: number | null;
  last_status: number | null;
  last_error: Generated<string>;
  delivered_at: number | null;
  created_at: number;
  updated_at: number;
}

/** API tokens other systems read results with, stored as SHA-256 hashes. */
export interface ApiTokenTable {
  id: Generated<number>;
  name: string;
  /** 'read-results'. */
  scope: string;
  /** Only this team's exams; null: every exam. */
  team_id: number | null;
  token_hash: string;
  /** The first characters of the token, to tell tokens apart in the console. */
  prefix: string;
  created_by: number | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}
