import { z } from 'zod';
import { EpochMs, Id, IdParam, PageQuery } from './common.js';

/** Kinds of job the server runs; a new kind of long or background work adds its name here and one handler. */
export const JOB_KINDS = [
  'bank_import',
  'invitation_bulk',
  'candidate_import',
  'code_similarity',
  'rescore',
  'results_export',
  'item_analysis',
] as const;
/** A job kind. */
export type JobKind = (typeof JOB_KINDS)[number];

/** Where a job is: queued, running, done, failed or cancelled (the last three are final). */
export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
/** A job state. */
export type JobStateName = (typeof JOB_STATES)[number];

/** A job as the console shows it. */
export const JobView = z.object({
  /** Job id. */
  id: Id,
  /** What it does. */
  kind: z.enum(JOB_KINDS),
  /** A short description its starter gave (e.g. the file name of an import). */
  title: z.string(),
  /** Where it is. */
  state: z.enum(JOB_STATES),
  /** How far it got: `done` of `total` in `phase` (e.g. 'read', 'pictures', 'questions'). */
  progress: z.object({
    /** Items done. */
    done: z.number().int(),
    /** Items in all (0 while unknown). */
    total: z.number().int(),
    /** The handler's current phase, or null. */
    phase: z.string().nullable(),
  }),
  /** What it produced once done (its kind says the shape; an import's is ImportCommitData). */
  result: z.unknown().nullable(),
  /** Why it failed: a stable error code and a message. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** True once someone asked to cancel it. */
  cancel_requested: z.boolean(),
  /** How many times a runner started it (more than one after a runner died). */
  attempts: z.number().int(),
  /** The staff member who started it, or null for the server's own. */
  owner_staff_id: z.number().int().nullable(),
  /** Their name, or '' for the server's own. */
  owner_name: z.string(),
  /** The team it belongs to, or null. */
  team_id: z.number().int().nullable(),
  /** When it was queued (epoch ms). */
  created_at: EpochMs,
  /** When a runner first started it. */
  started_at: EpochMs.nullable(),
  /** When it ended. */
  finished_at: EpochMs.nullable(),
});
/** A job as the console shows it. */
export type JobView = z.infer<typeof JobView>;

/** Columns the job list sorts by. */
export const JOB_SORTS = ['created', 'kind', 'state'] as const;

/** GET /admin/jobs query. */
export const JobListQuery = PageQuery.extend({
  /** Only jobs of this kind. */
  kind: z.enum(JOB_KINDS).optional(),
  /** Only jobs in this state. */
  state: z.enum(JOB_STATES).optional(),
  /** Sort column. */
  sort: z.enum(JOB_SORTS).default('created'),
  /** Sort direction. */
  order: z.enum(['asc', 'desc']).default('desc'),
});
/** GET /admin/jobs query. */
export type JobListQuery = z.input<typeof JobListQuery>;

/** GET /admin/jobs data. */
export const JobListData = z.object({
  /** One page of jobs. */
  list: z.array(JobView),
  /** How many jobs match in all. */
  total: z.number().int(),
});
/** GET /admin/jobs data. */
export type JobListData = z.infer<typeof JobListData>;

/** GET /admin/jobs/detail query. */
export const JobDetailQuery = z.object({
  /** The job. */
  job_id: IdParam,
});
/** GET /admin/jobs/detail query. */
export type JobDetailQuery = z.input<typeof JobDetailQuery>;

/** POST /admin/jobs/cancel body. */
export const JobCancelBody = z.object({
  /** The job. */
  job_id: Id,
});
/** POST /admin/jobs/cancel body. */
export type JobCancelBody = z.input<typeof JobCancelBody>;

/** What a call that starts a job answers: the job's id, to follow with GET /admin/jobs/detail. */
export const JobStartedData = z.object({
  /** The job. */
  job_id: Id,
});
/** What a call that starts a job answers. */
export type JobStartedData = z.infer<typeof JobStartedData>;
