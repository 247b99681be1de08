import { ERRORS, type ErrorCode } from '@examhall/contract';

/** An error with a stable code from the catalogue; the error handler turns it into the envelope. */
export class AppError extends Error {
  /** HTTP status of the code. */
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    /** Details the envelope carries in `data` for the page to word (e.g. tries left). */
    readonly data: Record<string, string | number> | null = null,
  ) {
    super(message ?? ERRORS[code].msg);
    this.status = ERRORS[code].status;
  }
}

/** Creates an AppError for `code`, optionally with a more specific message and details for the page. */
export function fail(code: ErrorCode, message?: string, data?: Record<string, string | number>): AppError {
  return new AppError(code, message, data ?? null);
}
