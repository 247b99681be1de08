/**
 * Results to other systems: signed webhooks when an attempt's final score is known, and API tokens an
 * applicant-tracking system reads results with.
 */
import { z } from 'zod';
import { EpochMs, Id, IdParam, PageQuery } from './common.js';
import { MAX_ID } from './ids.js';

/** Events a webhook carries: a final score known (or changed by a re-score), and the console's test. */
export const WEBHOOK_EVENTS = ['attempt.scored', 'ping'] as const;
/** A webhook event name. */
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

/** Where a delivery is: waiting for its (next) try, acknowledged with a 2xx, or given up on. */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
/** A delivery state. */
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** What an API token may do; reading results is the only scope so far. */
export const API_TOKEN_SCOPES = ['read-results'] as const;
/** An API token scope. */
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Header with the HMAC-SHA256 of `timestamp.body`, hex, as `sha256=<hex>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-examhall-signature';
/** Header with the Unix time in seconds the signature was made at; part of what is signed. */
export const WEBHOOK_TIMESTAMP_HEADER = 'x-examhall-timestamp';
/** Header with the event id: the same for every try and every endpoint, so a receiver drops repeats by it. */
export const WEBHOOK_EVENT_HEADER = 'x-examhall-event';

/** A webhook's address: http or https only (anything else is refused). */
export const WebhookUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'an http:// or https:// address without user or password');

/** A webhook's signing secret as the admin types it. */
export const WebhookSecret = z.string().min(16, 'at least 16 characters').max(200);

/** A webhook endpoint as the console shows it (never its secret). */
export const WebhookEndpointView = z.object({
  /** Endpoint id. */
  id: Id,
  /** Where events are posted. */
  url: z.string(),
  /** Only events of this team's exams; null: every exam. */
  team_id: z.number().int().nullable(),
  /** The team's name, or '' for every exam. */
  team_name: z.string(),
  /** What it is for, in the admin's words. */
  description: z.string(),
  /** False while paused: no deliveries are made for new events. */
  enabled: z.boolean(),
  /** Deliveries waiting for a (next) try. */
  pending: z.number().int(),
  /** Deliveries given up on. */
  failed: z.number().int(),
  /** When it was made (epoch ms). */
  created_at: EpochMs,
  /** When it last changed (epoch ms). */
  updated_at: EpochMs,
});
/** A webhook endpoint as the console shows it. */
export type WebhookEndpointView = z.infer<typeof WebhookEndpointView>;

/** GET /admin/integrations/webhooks data. */
export const WebhookListData = z.object({
  /** Every endpoint, oldest first. */
  list: z.array(WebhookEndpointView),
});
/** GET /admin/integrations/webhooks data. */
export type WebhookListData = z.infer<typeof WebhookListData>;

/** POST /admin/integrations/webhook/save body: a new endpoint (no id) or a change to one. */
export const WebhookSaveBody = z.object({
  /** The endpoint to change; absent for a new one. */
  id: Id.optional(),
  /** Where events are posted. */
  url: WebhookUrl,
  /** The signing secret; required for a new endpoint, absent to keep the current one. */
  secret: WebhookSecret.optional(),
  /** Only events of this team's exams; null for every exam. */
  team_id: Id.nullable().default(null),
  /** What it is for. */
  description: z.string().trim().max(200).default(''),
  /** False to pause it. */
  enabled: z.boolean().default(true),
});
/** POST /admin/integrations/webhook/save body. */
export type WebhookSaveBody = z.input<typeof WebhookSaveBody>;

/** A body naming one endpoint. */
export const WebhookIdBody = z.object({
  /** Endpoint id. */
  id: Id,
});
/** A body naming one endpoint. */
export type WebhookIdBody = z.infer<typeof WebhookIdBody>;

/** POST /admin/integrations/webhook/test data: how the endpoint answered a `ping` posted at once. */
export const WebhookTestData = z.object({
  /** The delivery recorded for the test (it is in the delivery log). */
  delivery_id: Id,
  /** True when the endpoint answered 2xx. */
  ok: z.boolean(),
  /** The HTTP status it answered, or null when none came. */
  status: z.number().int().nullable(),
  /** What went wrong, or ''. */
  error: z.string(),
});
/** POST /admin/integrations/webhook/test data. */
export type WebhookTestData = z.infer<typeof WebhookTestData>;

/** One delivery of one event to one endpoint, as the console's log shows it. */
export const DeliveryView = z.object({
  /** Delivery id. */
  id: Id,
  /** Its endpoint. */
  endpoint_id: Id,
  /** The endpoint's address. */
  endpoint_url: z.string(),
  /** The event's id (the `x-examhall-event` header and the body's `id`). */
  event_id: Id,
  /** What happened. */
  event: z.enum(WEBHOOK_EVENTS),
  /** The attempt scored, or null for a test. */
  attempt_id: z.number().int().nullable(),
  /** Its exam, or null for a test. */
  exam_id: z.number().int().nullable(),
  /** The score the event carries, or null for a test. */
  score: z.number().nullable(),
  /** Where it is. */
  status: z.enum(DELIVERY_STATES),
  /** Tries made so far. */
  attempts: z.number().int(),
  /** The HTTP status of the last try, or null when it got none. */
  last_status: z.number().int().nullable(),
  /** What went wrong on the last try, or ''. */
  last_error: z.string(),
  /** When the next try is due (pending only). */
  next_at: EpochMs.nullable(),
  /** When a 2xx acknowledged it. */
  delivered_at: EpochMs.nullable(),
  /** When the event happened. */
  created_at: EpochMs,
});
/** One delivery as the console shows it. */
export type DeliveryView = z.infer<typeof DeliveryView>;

/** GET /admin/integrations/deliveries query. */
export const DeliveryListQuery = PageQuery.extend({
  /** Only deliveries to this endpoint. */
  endpoint_id: IdParam.optional(),
  /** Only deliveries in this state. */
  status: z.enum(DELIVERY_STATES).optional(),
  /** Only deliveries of this attempt's events. */
  attempt_id: IdParam.optional(),
  /** Newest first (default) or oldest first. */
  order: z.enum(['asc', 'desc']).default('desc'),
});
/** GET /admin/integrations/deliveries query. */
export type DeliveryListQuery = z.input<typeof DeliveryListQuery>;

/** GET /admin/integrations/deliveries data. */
export const DeliveryListData = z.object({
  /** One page of deliveries. */
  list: z.array(DeliveryView),
  /** How many match in all. */
  total: z.number().int(),
  /** Days the log keeps a delivery once it is delivered or given up on (the server's WEBHOOK_LOG_DAYS). */
  kept_days: z.number().int(),
});
/** GET /admin/integrations/deliveries data. */
export type DeliveryListData = z.infer<typeof DeliveryListData>;

/** A body naming one delivery. */
export const DeliveryIdBody = z.object({
  /** Delivery id. */
  id: Id,
});
/** A body naming one delivery. */
export type DeliveryIdBody = z.infer<typeof DeliveryIdBody>;

/** An API token as the console lists it (never the token itself, which is shown once when made). */
export const ApiTokenView = z.object({
  /** Token id. */
  id: Id,
  /** Its name, e.g. the system that uses it. */
  name: z.string(),
  /** What it may do. */
  scope: z.enum(API_TOKEN_SCOPES),
  /** Only this team's exams; null: every exam. */
  team_id: z.number().int().nullable(),
  /** The team's name, or ''. */
  team_name: z.string(),
  /** The first characters of the token, to tell tokens apart. */
  prefix: z.string(),
  /** Who made it. */
  created_by_name: z.string(),
  /** When it was made. */
  created_at: EpochMs,
  /** When a call last used it, or null. */
  last_used_at: EpochMs.nullable(),
  /** When it was revoked, or null while it works. */
  revoked_at: EpochMs.nullable(),
});
/** An API token as the console lists it. */
export type ApiTokenView = z.infer<typeof ApiTokenView>;

/** GET /admin/integrations/tokens query. */
export const ApiTokenListQuery = PageQuery.extend({
  /** 'live' (default): tokens that work; 'all': revoked ones too. */
  show: z.enum(['live', 'all']).default('live'),
});
/** GET /admin/integrations/tokens query. */
export type ApiTokenListQuery = z.input<typeof ApiTokenListQuery>;

/** GET /admin/integrations/tokens data. */
export const ApiTokenListData = z.object({
  /** One page of tokens, newest first. */
  list: z.array(ApiTokenView),
  /** How many match in all. */
  total: z.number().int(),
});
/** GET /admin/integrations/tokens data. */
export type ApiTokenListData = z.infer<typeof ApiTokenListData>;

/** POST /admin/integrations/token/create body. */
export const ApiTokenCreateBody = z.object({
  /** A name that says who uses it. */
  name: z.string().trim().min(1, 'give the token a name').max(80),
  /** What it may do. */
  scope: z.enum(API_TOKEN_SCOPES).default('read-results'),
  /** Only this team's exams; null for every exam. */
  team_id: Id.nullable().default(null),
});
/** POST /admin/integrations/token/create body. */
export type ApiTokenCreateBody = z.input<typeof ApiTokenCreateBody>;

/** POST /admin/integrations/token/create data: the token, shown this once, and its row. */
export const ApiTokenCreateData = z.object({
  /** The bearer token; only its hash is kept, so it cannot be shown again. */
  token: z.string(),
  /** The token as the list shows it. */
  api_token: ApiTokenView,
});
/** POST /admin/integrations/token/create data. */
export type ApiTokenCreateData = z.infer<typeof ApiTokenCreateData>;

/** A body naming one API token. */
export const ApiTokenIdBody = z.object({
  /** Token id. */
  id: Id,
});
/** A body naming one API token. */
export type ApiTokenIdBody = z.infer<typeof ApiTokenIdBody>;

/** The candidate of a result, as another system needs them to match its applicant. */
export const ResultFeedCandidate = z.object({
  /** Candidate id. */
  id: z.number().int(),
  /** Name, or ''. */
  name: z.string(),
  /** Area code of the phone, e.g. '86'. */
  area_code: z.string(),
  /** Mobile phone number. */
  phone: z.string(),
  /** Email, or ''. */
  email: z.string(),
});
/** The candidate of a result. */
export type ResultFeedCandidate = z.infer<typeof ResultFeedCandidate>;

/** An attempt's final result: every point known (no answer waits for a grader). */
export const ResultView = z.object({
  /** Attempt id. */
  attempt_id: z.number().int(),
  /** Exam id. */
  exam_id: z.number().int(),
  /** Exam name. */
  exam_name: z.string(),
  /** Who took it. */
  candidate: ResultFeedCandidate,
  /** Final points. */
  score: z.number(),
  /** Points the attempt's questions are worth. */
  max_score: z.number(),
  /** Whether the score clears the exam's passing rule; null when the exam has none. */
  passed: z.boolean().nullable(),
  /** When the candidate finished (epoch ms). */
  finished_at: EpochMs,
  /** When the final score was last set (epoch ms): at the end, after the last mark, or after a re-score. */
  scored_at: EpochMs,
});
/** An attempt's final result. */
export type ResultView = z.infer<typeof ResultView>;

/** The body of an `attempt.scored` webhook: the result and the event's id (repeats carry the same id). */
export const WebhookScoredBody = ResultView.extend({
  /** Event id: the same on every try; a re-score that changes the score is a new event. */
  id: z.number().int(),
  /** Always 'attempt.scored'. */
  event: z.literal('attempt.scored'),
});
/** The body of an `attempt.scored` webhook. */
export type WebhookScoredBody = z.infer<typeof WebhookScoredBody>;

/** GET /v1/results query. */
export const ResultListQuery = z.object({
  /** Only this exam's results. */
  exam_id: IdParam.optional(),
  /** Cursor: results of attempts after this id (0, the default, starts at the first). */
  after: z.coerce.number().int().min(0).max(MAX_ID).default(0),
  /** Results per page. */
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
/** GET /v1/results query. */
export type ResultListQuery = z.input<typeof ResultListQuery>;

/** GET /v1/results data. */
export const ResultListData = z.object({
  /** Final results by attempt id, ascending. */
  list: z.array(ResultView),
  /** The `after` of the next page, or null when this is the last. */
  next_after: z.number().int().nullable(),
});
/** GET /v1/results data. */
export type ResultListData = z.infer<typeof ResultListData>;
