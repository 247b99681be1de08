import { z } from 'zod';
import { STAFF_PASSWORD_MIN } from '../constants.js';
import { PERMISSIONS, SIGN_IN_METHODS, STAFF_ROLES } from '../enums.js';
import { EpochMs, Id, IdParam } from './common.js';
import { AreaCodeField, PhoneField } from './user.js';

/** A six-digit TOTP code (spaces allowed, as apps show them). */
export const TotpCodeField = z
  .string()
  .transform((v) => v.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'must be 6 digits'));

/** A recovery code as shown once at enrolment (case and dashes do not matter). */
export const RecoveryCodeField = z
  .string()
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10}$/, 'must be 10 letters or digits'));

/** A staff role. */
export const StaffRoleField = z.enum(STAFF_ROLES);

/** POST /admin/auth/login body. */
export const StaffLoginBody = z.object({
  /** Phone number the account was created with. */
  phone: PhoneField,
  /** Password. */
  password: z.string().min(1).max(200),
  /** The current code of the account's authenticator app, when it has a second factor (asked for by `totp_required`). */
  totp_code: TotpCodeField.optional(),
  /** Instead of `totp_code`: one of the account's recovery codes, each good once. */
  recovery_code: RecoveryCodeField.optional(),
});
/** POST /admin/auth/login body. */
export type StaffLoginBody = z.input<typeof StaffLoginBody>;

/** A staff account as shown in the console (never with its password hash). */
export const StaffView = z.object({
  /** Account id. */
  id: z.number().int(),
  /** Phone number. */
  phone: z.string(),
  /** Display name. */
  name: z.string(),
  /** Role. */
  role: StaffRoleField,
  /** Permissions the role holds. */
  permissions: z.array(z.enum(PERMISSIONS)),
  /** When it was created (epoch ms). */
  created_at: EpochMs,
  /** True when the account may not log in. */
  disabled: z.boolean(),
  /** The team the account belongs to, or null (an admin's work spans every team). */
  team_id: z.number().int().nullable(),
  /** That team's name, or null. */
  team_name: z.string().nullable(),
  /** True when the account logs in with a second factor (TOTP). */
  totp_enabled: z.boolean(),
  /** True when the operator requires a second factor of this account and it has none yet: enrol before anything else. */
  totp_enrolment_required: z.boolean(),
});
/** A staff account. */
export type StaffView = z.infer<typeof StaffView>;

/** POST /admin/auth/login data. */
export const StaffLoginData = z.object({
  /** Staff token; also set as cookie `staff_auth`. */
  token: z.string(),
  /** When it expires (epoch ms). */
  expires_at: EpochMs,
  /** The account. */
  staff: StaffView,
});
/** POST /admin/auth/login data. */
export type StaffLoginData = z.infer<typeof StaffLoginData>;

/** GET /admin/staff data. */
export const StaffListData = z.object({
  /** Every staff account. */
  list: z.array(StaffView),
});
/** GET /admin/staff data. */
export type StaffListData = z.infer<typeof StaffListData>;

/** POST /admin/staff body: creates a staff account. */
export const CreateStaffBody = z.object({
  /** Phone number (login name). */
  phone: PhoneField,
  /** Calling code. */
  area_code: AreaCodeField,
  /** Display name. */
  name: z.string().trim().min(1).max(60),
  /** Role. */
  role: StaffRoleField,
  /** Initial password. */
  password: z.string().min(STAFF_PASSWORD_MIN).max(200),
  /** Team, or null/absent for none. */
  team_id: Id.nullable().optional(),
});
/** POST /admin/staff body. */
export type CreateStaffBody = z.input<typeof CreateStaffBody>;

/** POST /admin/staff/update body: changes what is given, leaves the rest. */
export const UpdateStaffBody = z.object({
  /** Account id. */
  id: Id,
  /** New display name. */
  name: z.string().trim().min(1).max(60).optional(),
  /** New role. */
  role: StaffRoleField.optional(),
  /** New team; null takes the account out of its team. */
  team_id: Id.nullable().optional(),
  /** True disables the account (its tokens stop working at once), false enables it. */
  disabled: z.boolean().optional(),
});
/** POST /admin/staff/update body. */
export type UpdateStaffBody = z.input<typeof UpdateStaffBody>;

/** POST /admin/staff/reset-password body. */
export const ResetStaffPasswordBody = z.object({
  /** Account id. */
  id: Id,
  /** The new password; the account's tokens are revoked. */
  password: z.string().min(STAFF_PASSWORD_MIN).max(200),
});
/** POST /admin/staff/reset-password body. */
export type ResetStaffPasswordBody = z.input<typeof ResetStaffPasswordBody>;

/** POST /admin/staff/reset-totp body: the account whose second factor an admin turns off. */
export const ResetStaffTotpBody = z.object({
  /** Account id (another than the caller's: one's own is turned off with a code or the password). */
  id: Id,
});
/** POST /admin/staff/reset-totp body. */
export type ResetStaffTotpBody = z.input<typeof ResetStaffTotpBody>;

/** A staff member's signed-in session: which one it is, how and where it was signed in to (never its token). */
export const StaffSession = z.object({
  /** Its name, by which it is ended (not its token, and not a numeric id). */
  session: z.string(),
  /** How it was signed in to; null for a session from before sessions were recorded. */
  method: z.enum(SIGN_IN_METHODS).nullable(),
  /** The address it was signed in from. */
  ip: z.string().nullable(),
  /** The browser's own description of itself (User-Agent). */
  user_agent: z.string().nullable(),
  /** When it was signed in to (epoch ms). */
  created_at: EpochMs,
  /** When it was last used, to within five minutes (epoch ms). */
  last_seen_at: EpochMs.nullable(),
  /** When it ends by itself (epoch ms). */
  expires_at: EpochMs,
  /** Whether it is the session this call came through. */
  current: z.boolean(),
});
/** A staff session. */
export type StaffSession = z.infer<typeof StaffSession>;

/** The live sessions of an account, newest first. */
export const StaffSessionsData = z.object({ list: z.array(StaffSession) });
/** The live sessions of an account. */
export type StaffSessionsData = z.infer<typeof StaffSessionsData>;

/** POST /admin/auth/sessions/end body: one of the caller's own sessions. */
export const EndOwnSessionBody = z.object({ session: z.string().min(1).max(64) });
/** POST /admin/auth/sessions/end body. */
export type EndOwnSessionBody = z.input<typeof EndOwnSessionBody>;

/** GET /admin/staff/sessions query: the account whose sessions an admin sees. */
export const StaffSessionsQuery = z.object({ id: IdParam });
/** GET /admin/staff/sessions query. */
export type StaffSessionsQuery = z.input<typeof StaffSessionsQuery>;

/** POST /admin/staff/sessions/end body: another account's session an admin ends. */
export const EndStaffSessionBody = z.object({ id: Id, session: z.string().min(1).max(64) });
/** POST /admin/staff/sessions/end body. */
export type EndStaffSessionBody = z.input<typeof EndStaffSessionBody>;

/** POST /admin/auth/totp/enrol data: a new secret for the authenticator app, shown this once. */
export const TotpEnrolData = z.object({
  /** The secret (base32), for typing into the app by hand. */
  secret: z.string(),
  /** The otpauth:// URI the QR code holds. */
  otpauth_uri: z.string(),
  /** The QR code of that URI as an SVG document. */
  qr_svg: z.string(),
});
/** POST /admin/auth/totp/enrol data. */
export type TotpEnrolData = z.infer<typeof TotpEnrolData>;

/** POST /admin/auth/totp/confirm body: a code of the enrolled secret turns the second factor on. */
export const TotpConfirmBody = z.object({
  /** The app's current code. */
  code: TotpCodeField,
});
/** POST /admin/auth/totp/confirm body. */
export type TotpConfirmBody = z.input<typeof TotpConfirmBody>;

/** POST /admin/auth/totp/confirm data: the recovery codes, shown this once (only their hashes are kept). */
export const TotpConfirmData = z.object({
  /** One-time recovery codes, each good for one login without the app. */
  recovery_codes: z.array(z.string()),
});
/** POST /admin/auth/totp/confirm data. */
export type TotpConfirmData = z.infer<typeof TotpConfirmData>;

/** POST /admin/auth/totp/disable body: proof of the account, a current code or the password. */
export const TotpDisableBody = z
  .object({
    /** The app's current code. */
    code: TotpCodeField.optional(),
    /** Or the account's password. */
    password: z.string().min(1).max(200).optional(),
  })
  .refine((v) => v.code !== undefined || v.password !== undefined, {
    message: 'give a code or the password',
    path: ['code'],
  });
/** POST /admin/auth/totp/disable body. */
export type TotpDisableBody = z.input<typeof TotpDisableBody>;
