/**
 * A candidate's profile: the fields the candidate's own form and the staff's directory (its form and its files)
 * both write, defined once here so that whatever one side stores, every answer of the other accepts.
 */
import { z } from 'zod';
import { EpochMs } from './common.js';

/** Degrees a profile records, by code (what is stored and answered; each language shows its own name). */
export const DEGREES = ['associate', 'bachelor', 'master', 'doctor'] as const;
/** A degree's code. */
export type Degree = (typeof DEGREES)[number];

/** Each degree's names, and other ways files and people write it (compared without case or spaces). */
export const DEGREE_NAMES: Record<Degree, { zh: string; en: string; aliases: readonly string[] }> = {
  associate: { zh: '大专', en: 'Associate', aliases: ['专科', '高职', 'associate degree', 'junior college'] },
  bachelor: { zh: '本科', en: 'Bachelor', aliases: ['学士', "bachelor's", 'bachelor degree', 'undergraduate'] },
  master: {
    zh: '硕士',
    en: 'Master',
    aliases: ['研究生', '硕士研究生', "master's", 'master degree', 'postgraduate'],
  },
  doctor: { zh: '博士', en: 'Doctorate', aliases: ['博士研究生', 'doctor', 'phd', 'ph.d.', 'doctoral'] },
};

const degreeKey = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
const DEGREE_BY_NAME: ReadonlyMap<string, Degree> = new Map(
  DEGREES.flatMap((d) =>
    [d, DEGREE_NAMES[d].zh, DEGREE_NAMES[d].en, ...DEGREE_NAMES[d].aliases].map((n) => [degreeKey(n), d] as const),
  ),
);

/** The degree a text names (its code, a name or an alias): '' for an empty text, null for one it does not name. */
export function degreeOf(text: string | null | undefined): Degree | '' | null {
  const key = degreeKey(text ?? '');
  if (key === '') return '';
  return DEGREE_BY_NAME.get(key) ?? null;
}

/**
 * A stored degree as answers give it: its code, or null for none. Earlier versions stored the directory's degree as
 * typed, so a stored name reads as its code and a text naming no degree reads as none.
 */
export function storedDegree(text: string | null | undefined): Degree | null {
  return degreeOf(text) || null;
}

/** Characters of a name, school or major. */
export const PROFILE_TEXT_MAX = 200;
/** Graduation years a profile accepts. */
export const GRADUATION_YEARS = { min: 1950, max: 2100 } as const;

const ProfileText = z.string().trim().max(PROFILE_TEXT_MAX, `at most ${PROFILE_TEXT_MAX} characters`);

/** A degree as written: a code, a name or an alias (see DEGREE_NAMES), read to its code; '' for none. */
export const DegreeField = z
  .string()
  .trim()
  .transform((text, ctx) => {
    const d = degreeOf(text);
    if (d === null) {
      ctx.addIssue({
        code: 'custom',
        message: `not a degree: one of ${DEGREES.map((x) => `${x} (${DEGREE_NAMES[x].zh})`).join(', ')}`,
      });
      return z.NEVER;
    }
    return d;
  });

/** A year of graduation. */
export const GraduationYearField = z.number().int().min(GRADUATION_YEARS.min).max(GRADUATION_YEARS.max);

/**
 * The profile's fields with the rules both writers apply; a form decides which it requires (the candidate's
 * requires all of them, the staff's only the name).
 */
export const ProfileFields = z.object({
  /** Full name. */
  name: ProfileText,
  /** School. */
  school: ProfileText,
  /** Major. */
  major: ProfileText,
  /** Degree, as its code ('' for none). */
  degree: DegreeField,
  /** Year of graduation. */
  graduation_year: GraduationYearField,
});

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
  /** Degree's code (see `storedDegree`), or null. */
  degree: z.enum(DEGREES).nullable(),
  /** Year of graduation. */
  graduation_year: z.number().int().nullable(),
  /** The resume, if one was uploaded. */
  resume: ResumeFile.nullable(),
});
/** GET /user/my-info data. */
export type MyInfoData = z.infer<typeof MyInfoData>;

/** POST /user/my-info body: the whole profile, every field required. */
export const MyInfoBody = z.object({
  /** Full name. */
  name: ProfileFields.shape.name.min(1),
  /** School. */
  school: ProfileFields.shape.school.min(1),
  /** Major. */
  major: ProfileFields.shape.major.min(1),
  /** Degree: a code (or a name, read to its code). */
  degree: ProfileFields.shape.degree.pipe(z.enum(DEGREES, 'choose a degree')),
  /** Year of graduation (a number, or its digits as sent by a form). */
  graduation_year: z.coerce.number().pipe(ProfileFields.shape.graduation_year),
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
