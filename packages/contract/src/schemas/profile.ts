import { z } from 'zod';
import { EpochMs } from './common.js';

/** Degrees offered in the profile. */
export const DEGREES = ['associate', 'bachelor', 'master', 'doctor'] as const;

/** The stored resume file. */
export const ResumeFile = z.object({
  /** File name as uploaded. */
  file_name: z.string(),
  /** Size in bytes. */
  size: z.number().int(),
  /** MIME type. */
  mime: z.string(),
  /** SHA-256, hex. */
  sha256: z.string(),
  /** When it was uploaded (epoch ms). */
  uploaded_at: EpochMs,
});
/** The stored resume file. */
export type ResumeFile = z.infer<typeof ResumeFile>;

/** GET /user/my-info data. */
export const MyInfoData = z.object({
  /** Full name. */
  name: z.string().nullable(),
  /** School. */
  school: z.string().nullable(),
  /** Major. */
  major: z.string().nullable(),
  /** Degree. */
  degree: z.enum(DEGREES).nullable(),
  /** Year of graduation. */
  graduation_year: z.number().int().nullable(),
  /** The resume, if one was uploaded. */
  resume: ResumeFile.nullable(),
});
/** GET /user/my-info data. */
export type MyInfoData = z.infer<typeof MyInfoData>;

/** POST /user/my-info body: the whole profile. */
export const MyInfoBody = z.object({
  /** Full name. */
  name: z.string().trim().min(1).max(60),
  /** School. */
  school: z.string().trim().min(1).max(100),
  /** Major. */
  major: z.string().trim().min(1).max(100),
  /** Degree. */
  degree: z.enum(DEGREES),
  /** Year of graduation. */
  graduation_year: z.coerce.number().int().min(1980).max(2100),
});
/** POST /user/my-info body. */
export type MyInfoBody = z.input<typeof MyInfoBody>;

/** Resume files accepted, by MIME type. */
export const RESUME_TYPES: Readonly<Record<string, string>> = {
  'application/pdf': '.pdf',
  'application/msword': '.doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
};
/** Largest resume accepted, bytes. */
export const RESUME_MAX_BYTES = 10 * 1024 * 1024;

/** GET /resume/index data (and POST, a multipart upload in field `file`). */
export const ResumeData = z.object({
  /** The resume, if one was uploaded. */
  resume: ResumeFile.nullable(),
});
/** Resume data. */
export type ResumeData = z.infer<typeof ResumeData>;

/** GET /common/const query. */
export const ConstQuery = z.object({
  /** Which list: 'college'. */
  type: z.enum(['college']),
  /** Filter by name, case-insensitive. */
  keyword: z.string().trim().max(50).optional(),
});
/** GET /common/const query. */
export type ConstQuery = z.input<typeof ConstQuery>;

/** GET /common/const data. */
export const ConstData = z.object({
  /** Matching entries, at most 50. */
  list: z.array(z.object({ id: z.number().int(), name: z.string(), city: z.string() })),
});
/** GET /common/const data. */
export type ConstData = z.infer<typeof ConstData>;

/** GET /const/mixed-major data: majors grouped by discipline. */
export const MixedMajorData = z.object({
  /** Disciplines with their majors. */
  list: z.array(z.object({ category: z.string(), majors: z.array(z.string()) })),
});
/** GET /const/mixed-major data. */
export type MixedMajorData = z.infer<typeof MixedMajorData>;
