/** The candidate directory (staff side): candidates, their bulk import, and each invited candidate's status in an exam. */
import { z } from 'zod';
import { isValidPhone } from '../areaCodes.js';
import { EpochMs, FormFlag, PageQuery } from './common.js';
import { Id, IdParam } from './ids.js';
import { SMS_STATES } from './invitations.js';
import { DEGREES, ProfileFields } from './profile.js';
import { AreaCodeField, PhoneField } from './user.js';

/** Limits of the directory and its imports. */
export const CANDIDATE_LIMITS = {
  /** Data rows one import file may hold. */
  importRows: 10_000,
  /** Largest import file, bytes. */
  fileBytes: 10 * 1024 * 1024,
  /** Custom columns one candidate (and one file) may carry. */
  customFields: 30,
  /** Characters of a custom value (a name, school or major: PROFILE_TEXT_MAX). */
  text: 200,
  /** Characters of a custom column's name. */
  customName: 50,
  /** Rows the candidates of one import are written in, one transaction each. */
  batchRows: 500,
  /** Candidates a preview answers in each of its lists (the first ones; `counts` has them all). */
  previewRows: 50,
  /** Problems a preview answers (the first ones by row; `counts` has them all). */
  previewProblems: 200,
} as const;

/** The fields a candidate file names by header; any other header is a custom column. */
export const CANDIDATE_COLUMNS = [
  'area_code',
  'phone',
  'name',
  'email',
  'school',
  'major',
  'degree',
  'graduation_year',
] as const;
/** A known column of a candidate file. */
export type CandidateColumn = (typeof CANDIDATE_COLUMNS)[number];

/** Header texts (Chinese and English, compared without case, spaces, underscores and a trailing `*`) per column. */
export const CANDIDATE_HEADERS: Record<CandidateColumn, { zh: string; en: string; aliases: readonly string[] }> = {
  area_code: { zh: '区号', en: 'area code', aliases: ['国家区号', '国际区号', 'country code', 'calling code'] },
  phone: { zh: '手机号', en: 'phone', aliases: ['手机', '手机号码', '电话', 'mobile', 'phone number', 'mobile phone'] },
  name: { zh: '姓名', en: 'name', aliases: ['名字', 'full name'] },
  email: { zh: '邮箱', en: 'email', aliases: ['电子邮箱', '邮件', 'e-mail', 'mail'] },
  school: { zh: '学校', en: 'school', aliases: ['院校', '毕业院校', 'university', 'college'] },
  major: { zh: '专业', en: 'major', aliases: ['所学专业'] },
  degree: { zh: '学历', en: 'degree', aliases: ['最高学历', 'education'] },
  graduation_year: { zh: '毕业年份', en: 'graduation year', aliases: ['毕业年', '毕业时间', 'year of graduation'] },
};

/** A header as compared: lower case, without spaces, underscores, dashes or a trailing `*` (a required mark). */
export function normalCandidateHeader(text: string): string {
  return text
    .trim()
    .replace(/[*＊]+$/, '')
    .toLowerCase()
    .replace(/[\s_\-（）()]+/g, '');
}

/** The known column a header names, or null (a custom column). */
export function candidateColumnOf(header: string): CandidateColumn | null {
  const h = normalCandidateHeader(header);
  for (const col of CANDIDATE_COLUMNS) {
    const names = CANDIDATE_HEADERS[col];
    if ([names.zh, names.en, col, ...names.aliases].some((n) => normalCandidateHeader(n) === h)) return col;
  }
  return null;
}

/** Custom fields: column name to value. */
export const CustomFields = z
  .record(
    z.string().trim().min(1, 'a custom column needs a name').max(CANDIDATE_LIMITS.customName),
    z.string().max(CANDIDATE_LIMITS.text, `at most ${CANDIDATE_LIMITS.text} characters`),
  )
  .refine((r) => Object.keys(r).length <= CANDIDATE_LIMITS.customFields, {
    message: `at most ${CANDIDATE_LIMITS.customFields} custom fields`,
  });
/** Custom fields of a candidate. */
export type CustomFields = z.infer<typeof CustomFields>;

/** An email address, or '' for none. */
export const EmailField = z
  .string()
  .trim()
  .max(CANDIDATE_LIMITS.text)
  .refine((v) => v === '' || z.email().safeParse(v).success, 'not an email address');

/** The fields of a candidate a staff member writes: the profile's (only the name required), phone, email, custom. */
const CandidateFields = z.object({
  /** Calling code from the area-code list (default 86). */
  area_code: AreaCodeField,
  /** Mobile number, valid for the area code (the login page's rule). */
  phone: PhoneField,
  /** Name. */
  name: ProfileFields.shape.name.min(1, 'enter a name'),
  /** Email, or ''. */
  email: EmailField.default(''),
  /** School, or ''. */
  school: ProfileFields.shape.school.default(''),
  /** Major, or ''. */
  major: ProfileFields.shape.major.default(''),
  /** Degree: a code or a name (本科, Master, ...), stored as its code; or ''. */
  degree: ProfileFields.shape.degree.default(''),
  /** Graduation year, or null. */
  graduation_year: ProfileFields.shape.graduation_year.nullable().default(null),
  /** Custom fields (column -> value). */
  custom: CustomFields.default({}),
});

/** Adds the login page's phone rule (the number's pattern for its area code) to a schema with both fields. */
function phoneRule<T extends z.ZodType<{ area_code: string; phone: string }>>(schema: T) {
  return schema.superRefine((v, ctx) => {
    if (!isValidPhone(v.area_code, v.phone)) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: 'invalid phone number' });
    }
  });
}

/** POST /admin/candidates body. */
export const CandidateCreateBody = phoneRule(
  CandidateFields.extend({
    /** The team that may see the candidate (an admin's choice; others: their own team). */
    team_id: Id.optional(),
  }),
);
/** POST /admin/candidates body. */
export type CandidateCreateBody = z.input<typeof CandidateCreateBody>;

/** POST /admin/candidates/update body. */
export const CandidateUpdateBody = phoneRule(
  CandidateFields.extend({
    /** The candidate. */
    candidate_id: Id,
  }),
);
/** POST /admin/candidates/update body. */
export type CandidateUpdateBody = z.input<typeof CandidateUpdateBody>;

/** A candidate's profile fields, as the directory shows them and as an import reads them from a row. */
const candidateProfile = {
  /** Calling code. */
  area_code: z.string(),
  /** Mobile number (digits). */
  phone: z.string(),
  /** Name ('' when unknown). */
  name: z.string(),
  /** Email. */
  email: z.string(),
  /** School. */
  school: z.string(),
  /** Major. */
  major: z.string(),
  /** Degree's code, or '' (none, or in an import a text that names no degree: see the row's problems). */
  degree: z.enum(DEGREES).or(z.literal('')),
  /** Graduation year. */
  graduation_year: z.number().int().nullable(),
  /** Custom fields. */
  custom: z.record(z.string(), z.string()),
};

/** A candidate as the directory shows it. */
export const CandidateView = z.object({
  /** Id. */
  id: z.number().int(),
  ...candidateProfile,
  /** The teams linked to the candidate that the reader belongs to (an admin: all of them). */
  team_ids: z.array(z.number().int()),
  /** Exams the candidate is invited to, of those the reader can see. */
  invitations: z.number().int(),
  /** When the candidate was added (or first logged in). */
  created_at: EpochMs,
  /** Last login, or null when never. */
  last_login_at: EpochMs.nullable(),
});
/** A candidate as the directory shows it. */
export type CandidateView = z.infer<typeof CandidateView>;

/** Columns the directory sorts by. */
export const CANDIDATE_SORTS = ['name', 'phone', 'school', 'graduation_year', 'created_at', 'last_login_at'] as const;

/** GET /admin/candidates query. */
export const CandidateListQuery = PageQuery.extend({
  /** Name, phone or email contains this. */
  q: z.string().trim().max(100).optional(),
  /** School contains this. */
  school: z.string().trim().max(100).optional(),
  /** Only those who have logged in (yes) or not (no). */
  login: z.enum(['yes', 'no']).optional(),
  /** Only the candidates of this team (admins). */
  team_id: IdParam.optional(),
  /** Sort column. */
  sort: z.enum(CANDIDATE_SORTS).default('created_at'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('desc'),
});
/** GET /admin/candidates query. */
export type CandidateListQuery = z.input<typeof CandidateListQuery>;

/** GET /admin/candidates data. */
export const CandidateListData = z.object({
  /** One page. */
  list: z.array(CandidateView),
  /** How many match the filters. */
  total: z.number().int(),
  /** Of the candidates matching every filter but `login`: how many have logged in and how many not. */
  counts: z.object({ all: z.number().int(), logged_in: z.number().int(), never: z.number().int() }),
});
/** GET /admin/candidates data. */
export type CandidateListData = z.infer<typeof CandidateListData>;

/** GET /admin/candidates/detail query. */
export const CandidateDetailQuery = z.object({
  /** The candidate. */
  candidate_id: IdParam,
});
/** GET /admin/candidates/detail query. */
export type CandidateDetailQuery = z.input<typeof CandidateDetailQuery>;

/** POST /admin/candidates/import/preview fields (multipart, the file in field `file`). */
export const CandidateImportPreviewBody = z.object({
  /** The team the candidates join (an admin's choice; others: their own team). */
  team_id: IdParam.optional(),
});
/** POST /admin/candidates/import/preview fields. */
export type CandidateImportPreviewBody = z.input<typeof CandidateImportPreviewBody>;

/** POST /admin/candidates/import fields (multipart, the same file again in field `file`). */
export const CandidateImportBody = CandidateImportPreviewBody.extend({
  /** Import the valid rows when some have errors; otherwise a file with an error imports nothing. */
  only_valid: FormFlag,
  /** The SHA-256 the preview answered: another file is refused. */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'the SHA-256 of the previewed file, hex')
    .optional(),
  /** Invite the imported candidates to this exam once they are stored (a bulk invitation job of its own). */
  invite_exam_id: IdParam.optional(),
  /** With `invite_exam_id`: text each new invitation its link. */
  send_sms: FormFlag,
});
/** POST /admin/candidates/import fields. */
export type CandidateImportBody = z.input<typeof CandidateImportBody>;

/** What an import does with a row. */
export const CANDIDATE_ROW_ACTIONS = ['create', 'update', 'invalid'] as const;
/** What an import does with a row. */
export type CandidateRowAction = (typeof CANDIDATE_ROW_ACTIONS)[number];

/** A problem of an import file, located by row (the sheet's row number) and column (its header). */
export const CandidateImportProblem = z.object({
  /** Row number in the sheet (the header is row 1), or null for the file as a whole. */
  row: z.number().int().nullable(),
  /** The column's header as the file writes it, or null. */
  column: z.string().nullable(),
  /**
   * Stable code: phone_missing, phone_invalid, area_code_unknown, email_invalid, year_invalid, degree_unknown,
   * too_long, merged, candidate_in_other_team (the phone is a person only other teams have), ...
   */
  code: z.string(),
  /** error: the row is not imported; warning: imported as shown; info: for the record. */
  severity: z.enum(['error', 'warning', 'info']),
  /** English text. */
  message: z.string(),
  /** Chinese text. */
  message_zh: z.string(),
});
/** A located problem of an import file. */
export type CandidateImportProblem = z.infer<typeof CandidateImportProblem>;

/** One candidate of an import file (rows with the same phone merged into one). */
export const CandidateImportRow = z.object({
  /** The first row it comes from. */
  row: z.number().int(),
  /** Every row merged into it (one when the phone appears once). */
  rows: z.array(z.number().int()),
  ...candidateProfile,
  /** create: a new candidate for the team; update: one the team already has; invalid: not imported. */
  action: z.enum(CANDIDATE_ROW_ACTIONS),
  /** The existing candidate an update writes to. */
  candidate_id: z.number().int().nullable(),
});
/** One candidate of an import file. */
export type CandidateImportRow = z.infer<typeof CandidateImportRow>;

/**
 * POST /admin/candidates/import/preview data. A file may hold 10,000 rows: the answer carries the first page of
 * candidates, of those with a problem and of the problems, with the totals.
 */
export const CandidateImportPreviewData = z.object({
  /** The file's name. */
  file_name: z.string(),
  /** SHA-256 of the file, hex: send it back with the import. */
  sha256: z.string(),
  /** Known columns found, in file order. */
  columns: z.array(z.enum(CANDIDATE_COLUMNS)),
  /** Headers that became custom fields. */
  custom_columns: z.array(z.string()),
  /** The first candidates in file order, at most CANDIDATE_LIMITS.previewRows (all: counts.candidates). */
  rows: z.array(CandidateImportRow).max(CANDIDATE_LIMITS.previewRows),
  /**
   * The first candidates with a problem at one of their rows, in file order, at most CANDIDATE_LIMITS.previewRows
   * (all: counts.with_problems).
   */
  problem_rows: z.array(CandidateImportRow).max(CANDIDATE_LIMITS.previewRows),
  /** The first problems by row, at most CANDIDATE_LIMITS.previewProblems (all: counts.problems). */
  problems: z.array(CandidateImportProblem).max(CANDIDATE_LIMITS.previewProblems),
  /** Counts, of the whole file. */
  counts: z.object({
    /** Data rows read. */
    rows: z.number().int(),
    /** Candidates after merging. */
    candidates: z.number().int(),
    /** Candidates with a problem at one of their rows. */
    with_problems: z.number().int(),
    /** Problems in all. */
    problems: z.number().int(),
    create: z.number().int(),
    update: z.number().int(),
    invalid: z.number().int(),
    /** Rows merged into an earlier row with the same phone. */
    merged: z.number().int(),
    errors: z.number().int(),
    warnings: z.number().int(),
  }),
});
/** POST /admin/candidates/import/preview data. */
export type CandidateImportPreviewData = z.infer<typeof CandidateImportPreviewData>;

/** The result of a finished candidate import job. */
export const CandidateImportResult = z.object({
  /** Candidates created. */
  created: z.number().int(),
  /** Existing candidates updated (and linked to the team). */
  updated: z.number().int(),
  /** Invalid rows left out. */
  skipped: z.number().int(),
  /** Candidates written in all. */
  total: z.number().int(),
  /** The bulk invitation job started for them when the import named an exam. */
  invitation_job_id: Id.optional(),
});
/** The result of a finished candidate import job. */
export type CandidateImportResult = z.infer<typeof CandidateImportResult>;

/** GET /admin/candidates/import/template query. */
export const CandidateTemplateQuery = z.object({
  /** The language of the headers and the example. */
  lang: z.enum(['zh', 'en']).default('zh'),
});
/** GET /admin/candidates/import/template query. */
export type CandidateTemplateQuery = z.input<typeof CandidateTemplateQuery>;

/**
 * Where an invited candidate is in an exam, furthest first: ended by a proctor, submitted, in progress, absent
 * (the window is over and they never started), checks passed (pledge signed, exam not started), logged in
 * (since the invitation), invited.
 */
export const CANDIDATE_STATUSES = [
  'invited',
  'logged_in',
  'checks_passed',
  'in_progress',
  'submitted',
  'ended_by_proctor',
  'absent',
] as const;
/** An invited candidate's status in an exam. */
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];

/** One invited candidate of an exam with their status. */
export const ExamCandidateRow = z.object({
  /** The invitation (the candidate's anid for this exam). */
  invitation_id: z.number().int(),
  /** The candidate, or null when the phone is in no directory and has never logged in. */
  candidate_id: z.number().int().nullable(),
  /** Calling code. */
  area_code: z.string(),
  /** Mobile number. */
  phone: z.string(),
  /** Name ('' when unknown). */
  name: z.string(),
  /** Email. */
  email: z.string(),
  /** School. */
  school: z.string(),
  /** Status. */
  status: z.enum(CANDIDATE_STATUSES),
  /** The state of the invitation's latest text; null while it has none. */
  sms: z.enum(SMS_STATES).nullable(),
  /** When invited. */
  invited_at: EpochMs,
  /** Last login, or null. */
  last_login_at: EpochMs.nullable(),
  /** The latest attempt, or null. */
  attempt_id: z.number().int().nullable(),
  /** When the exam started for them (left the checks). */
  started_at: EpochMs.nullable(),
  /** When their attempt ended. */
  finished_at: EpochMs.nullable(),
  /** Why it ended: submit, timeout, cuts, proctor. */
  finish_reason: z.string().nullable(),
  /** Score, once scored. */
  score: z.number().nullable(),
});
/** One invited candidate of an exam. */
export type ExamCandidateRow = z.infer<typeof ExamCandidateRow>;

/** Columns the exam's candidate list sorts by. */
export const EXAM_CANDIDATE_SORTS = ['name', 'phone', 'school', 'status', 'invited_at', 'started_at'] as const;

/** GET /admin/exam/candidates query. */
export const ExamCandidatesQuery = PageQuery.extend({
  /** The exam. */
  exam_id: IdParam,
  /** Only candidates in this status. */
  status: z.enum(CANDIDATE_STATUSES).optional(),
  /** Name, phone or school contains this. */
  q: z.string().trim().max(100).optional(),
  /** Sort column. */
  sort: z.enum(EXAM_CANDIDATE_SORTS).default('invited_at'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('asc'),
});
/** GET /admin/exam/candidates query. */
export type ExamCandidatesQuery = z.input<typeof ExamCandidatesQuery>;

/** GET /admin/exam/candidates data. */
export const ExamCandidatesData = z.object({
  /** One page. */
  list: z.array(ExamCandidateRow),
  /** How many match the filters. */
  total: z.number().int(),
  /** Candidates per status (of those matching `q`, whatever `status`). */
  counts: z.record(z.enum(CANDIDATE_STATUSES), z.number().int()),
  /** Invited candidates matching `q`. */
  all: z.number().int(),
  /** The server's time of the answer (statuses such as absent depend on it). */
  at: EpochMs,
});
/** GET /admin/exam/candidates data. */
export type ExamCandidatesData = z.infer<typeof ExamCandidatesData>;

/** GET /admin/exam/candidates/export query. */
export const ExamCandidatesExportQuery = z.object({
  /** The exam. */
  exam_id: IdParam,
  /** Only candidates in this status. */
  status: z.enum(CANDIDATE_STATUSES).optional(),
  /** Name, phone or school contains this. */
  q: z.string().trim().max(100).optional(),
  /** File format. */
  format: z.enum(['csv', 'xlsx']).default('xlsx'),
  /** Language of the headers and statuses. */
  lang: z.enum(['zh', 'en']).default('zh'),
});
/** GET /admin/exam/candidates/export query. */
export type ExamCandidatesExportQuery = z.input<typeof ExamCandidatesExportQuery>;
