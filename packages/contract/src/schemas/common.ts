import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';

export { Id, IdParam } from './ids.js';

/** A flag as the candidate client reads it: 0 or 1, not a boolean. */
export const Flag = z.union([z.literal(0), z.literal(1)]);

/** A yes/no field of a multipart form: '1' or 'true' is yes; absent is no. */
export const FormFlag = z
  .enum(['1', '0', 'true', 'false'])
  .default('0')
  .transform((v) => v === '1' || v === 'true');

/** Epoch milliseconds. */
export const EpochMs = z.number().int();

/** A client-generated id that makes a retried write idempotent. */
export const ClientId = z
  .string()
  .min(8)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only');

/** Paging parameters of list calls. */
export const PageQuery = z.object({
  /** 1-based page number. */
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  /** Items per page. */
  page_size: z.coerce.number().int().min(1).max(200).default(20),
});

/** The success envelope around a call's data. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    /** Always 'success'. */
    status: z.literal('success'),
    /** A human-readable note, usually empty. */
    msg: z.string(),
    /** The call's payload. */
    data,
  });
}

/** The error envelope: a stable code, its message and no data. */
export const ErrorEnvelope = z.object({
  /** Always 'error'. */
  status: z.literal('error'),
  /** What went wrong, for people. */
  msg: z.string(),
  /** Stable id from the error catalogue. */
  code: z.enum(ERROR_CODES),
  /** Details a page words itself (e.g. `tries_left` of a wrong SMS code), or null. */
  data: z.record(z.string(), z.union([z.string(), z.number()])).nullable(),
});
/** The error envelope. */
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Data of calls that answer nothing but success. */
export const Empty = z.object({});
/** Empty data. */
export type Empty = z.infer<typeof Empty>;
