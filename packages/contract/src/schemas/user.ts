import { z } from 'zod';
import { AREA_CODES, DEFAULT_AREA_CODE, isValidPhone } from '../areaCodes.js';
import { SMS_RULES } from '../constants.js';
import { EpochMs, Flag } from './common.js';

/** A calling code from the area-code list. */
export const AreaCodeField = z
  .string()
  .trim()
  .refine((v) => AREA_CODES.some((a) => a.code === v), 'unknown area code')
  .default(DEFAULT_AREA_CODE);

/** A phone number: digits only (spaces and dashes are removed). */
export const PhoneField = z
  .string()
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(z.string().regex(/^\d{4,15}$/, 'must be 4 to 15 digits'));

/** Checks the phone against its area code's pattern; used by every call that takes both. */
function withValidPhone<T extends z.ZodObject<{ phone: typeof PhoneField; area_code: typeof AreaCodeField }>>(
  schema: T,
) {
  return schema.superRefine((v, ctx) => {
    const { phone, area_code } = v as { phone: string; area_code: string };
    if (!isValidPhone(area_code, phone)) {
      ctx.addIssue({ code: 'custom', path: ['phone'], message: 'invalid phone number' });
    }
  });
}

/** One entry of /user/area-code-list. */
export const AreaCodeItem = z.object({
  /** Digits after '+'. */
  code: z.string(),
  /** Name in Chinese. */
  name_zh: z.string(),
  /** Name in English. */
  name_en: z.string(),
  /** Pattern of a valid mobile number. */
  pattern: z.string(),
});

/** GET /user/area-code-list data. */
export const AreaCodeListData = z.object({
  /** The calling codes, default first. */
  list: z.array(AreaCodeItem),
});
/** GET /user/area-code-list data. */
export type AreaCodeListData = z.infer<typeof AreaCodeListData>;

/** GET /user/send-msg query. */
export const SendMsgQuery = withValidPhone(
  z.object({
    /** Mobile number without the calling code. */
    phone: PhoneField,
    /** Calling code, '86' by default. */
    area_code: AreaCodeField,
  }),
);
/** GET /user/send-msg query. */
export type SendMsgQuery = z.input<typeof SendMsgQuery>;

/** GET /user/send-msg data. */
export const SendMsgData = z.object({
  /** Seconds until another code may be requested. */
  resend_after: z.number().int(),
  /** Seconds the code stays valid. */
  expires_in: z.number().int(),
  /**
   * Seconds until the code goes to the SMS provider: 0 when it went during the call, more when many candidates
   * ask at once and it waits for its turn (it arrives by itself; `resend_after` and `expires_in` count it).
   */
  delay: z.number().int().min(0),
});
/** GET /user/send-msg data. */
export type SendMsgData = z.infer<typeof SendMsgData>;

/** POST /user/login body. */
export const LoginBody = withValidPhone(
  z.object({
    /** Mobile number without the calling code. */
    phone: PhoneField,
    /** Calling code, '86' by default. */
    area_code: AreaCodeField,
    /** The code received by SMS. */
    code: z
      .string()
      .trim()
      .regex(new RegExp(`^\\d{${SMS_RULES.codeLength}}$`), `must be ${SMS_RULES.codeLength} digits`),
  }),
);
/** POST /user/login body. */
export type LoginBody = z.input<typeof LoginBody>;

/** POST /user/login data. */
export const LoginData = z.object({
  /** The token; also set as cookie `auth`. */
  auth: z.string(),
  /** The candidate's id. */
  user_id: z.number().int(),
  /** The candidate's phone number. */
  phone: z.string(),
  /** When the token expires (epoch ms). */
  expires_at: EpochMs,
});
/** POST /user/login data. */
export type LoginData = z.infer<typeof LoginData>;

/** The candidate's profile as shown back to them (filled by the profile screens). */
export const UserInfo = z.object({
  /** Full name. */
  name: z.string().nullable(),
  /** School. */
  school: z.string().nullable(),
  /** Major. */
  major: z.string().nullable(),
  /** Degree. */
  degree: z.string().nullable(),
  /** Year of graduation. */
  graduation_year: z.number().int().nullable(),
});
/** The candidate's profile. */
export type UserInfo = z.infer<typeof UserInfo>;

/** GET /user/get-info data. */
export const GetInfoData = z.object({
  /** The candidate's id. */
  id: z.number().int(),
  /** Same as id, under the name the candidate client reads it by. */
  user_id: z.number().int(),
  /** Mobile number without the calling code. */
  phone: z.string(),
  /** Calling code. */
  area_code: z.string(),
  /** 1 when the profile has been completed. */
  info: Flag,
  /** The profile. */
  userInfo: UserInfo,
});
/** GET /user/get-info data. */
export type GetInfoData = z.infer<typeof GetInfoData>;
