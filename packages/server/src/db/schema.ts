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
}

/** Tokens, stored only as SHA-256 hashes; `kind` keeps candidate and staff tokens apart. */
export interface AuthTokenTable {
  token_hash: string;
  kind: string;
  subject_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
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
}

/** Sections of an exam: linetest, major, evaluation. */
export interface ExamSectionTable {
  id: Generated<number>;
  exam_id: number;
  kind: string;
  title: string;
  order_num: number;
}

/** Questions. `content` is what the candidate may see; `answer_key` never leaves the server. */
export interface QuestionTable {
  id: Generated<number>;
  exam_id: number;
  section_id: number;
  type: number;
  order_num: number;
  score: number;
  content: string;
  answer_key: string;
}

/** Invitations of a phone number to an exam; the id is the `anid`. */
export interface InvitationTable {
  id: Generated<number>;
  exam_id: number;
  area_code: string;
  phone: string;
  extra_minutes: number;
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
}

/** The database. */
export interface Database {
  candidates: CandidateTable;
  staff: StaffTable;
  auth_tokens: AuthTokenTable;
  sms_codes: SmsCodeTable;
  exams: ExamTable;
  exam_sections: ExamSectionTable;
  questions: QuestionTable;
  invitations: InvitationTable;
  audit_log: AuditLogTable;
}
