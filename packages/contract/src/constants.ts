/** Constants and limits clients and the server share (docs/contract.md#constants-and-limits). */

/** A request that takes longer than this fails with 'response timeout, please retry'. */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * How long before their window opens candidates may start the device checks (our extension): a campus exam's
 * thousands check in over this stretch, so that at the opening they only press start.
 */
export const CHECK_IN_MINUTES = 30;

/** How long the server waits for the judge to verify a reference solution on every case. */
export const JUDGE_VERIFY_MS = 10 * 60_000;

/** How long a client waits for a call that waits for the judge: the judge's limit and a little more. */
export const JUDGE_WAIT_MS = JUDGE_VERIFY_MS + 30_000;

/** Retry helper: idempotent reads are retried twice, 300 ms apart. */
export const RETRY_POLICY = { retries: 2, delayMs: 300 } as const;

/** Name of the cookie that holds the candidate's token, and of the query parameter that carries it. */
export const AUTH_COOKIE = 'auth';

/** Name of the cookie that holds a staff token (separate from the candidate's). */
export const STAFF_AUTH_COOKIE = 'staff_auth';

/** Lifetime of the auth cookie and of a candidate token, in days. */
export const AUTH_COOKIE_DAYS = 30;

/** Lifetime of a staff token, in hours. */
export const STAFF_TOKEN_HOURS = 12;

/** The route-change loading overlay appears only after this delay. */
export const LOADER_DELAY_MS = 200;

/** The server clock ticks every second on the client. */
export const CLOCK_TICK_MS = 1_000;

/** The server speaks UTC+8. */
export const SERVER_UTC_OFFSET_MINUTES = 480;

/** Camera capture: 1280x720 JPEG, the preview mirrored. */
export const CAPTURE = { width: 1280, height: 720, mime: 'image/jpeg', mirrored: true } as const;

/** Largest picture a face check or an ID photo may be, in bytes: a 1280x720 JPEG frame is 100 to 300 KB. */
export const FACE_IMG_MAX_BYTES = 4 * 1024 * 1024;

/** Login by SMS code: the limits the server enforces. */
export const SMS_RULES = {
  /** Digits in a code. */
  codeLength: 6,
  /** How long a code stays valid. */
  codeTtlMs: 5 * 60_000,
  /** Minimum time between two sends to the same phone. */
  resendIntervalMs: 60_000,
  /** Sends per phone per calendar day (UTC+8). */
  dailyCapPerPhone: 10,
  /** Sends from one IP address within ipWindowMs. */
  ipLimit: 30,
  /** Window of the per-IP limit. */
  ipWindowMs: 60 * 60_000,
  /** Wrong tries after which a code is void. */
  maxWrongTries: 5,
} as const;

/** Staff password login: failed tries per phone within the window before a lock. */
export const STAFF_LOGIN_RULES = { maxFailures: 5, windowMs: 15 * 60_000 } as const;

/** Minimum length of a staff password. */
export const STAFF_PASSWORD_MIN = 8;

/** Default page size of paged lists. */
export const DEFAULT_PAGE_SIZE = 20;
