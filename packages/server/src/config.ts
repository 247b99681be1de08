import { X509Certificate } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseServerTime } from '@examhall/contract';
import { z } from 'zod';
import { SMS_BUDGET_DEFAULTS, type SmsBudgets } from './services/smsBudget.js';

const here = path.dirname(fileURLToPath(import.meta.url));

const optionalText = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const serverTime = (name: string) =>
  optionalText.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const ms = parseServerTime(v);
    if (Number.isNaN(ms)) {
      ctx.addIssue({ code: 'custom', message: `${name} must be 'YYYY-MM-DD HH:mm' (UTC+8) or ISO 8601 with a zone` });
      return z.NEVER;
    }
    return ms;
  });

/** TOTP_KEY: 32 bytes, as 64 hex digits or base64 (standard or URL-safe). */
const totpKey = optionalText.transform((v, ctx) => {
  if (v === undefined) return undefined;
  const key = /^[0-9a-f]{64}$/i.test(v)
    ? Buffer.from(v, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(v)
      ? Buffer.from(v, 'base64')
      : null;
  if (key?.length !== 32) {
    ctx.addIssue({ code: 'custom', message: 'must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)' });
    return z.NEVER;
  }
  return key;
});

/** Days the webhook delivery log keeps a settled delivery unless WEBHOOK_LOG_DAYS says otherwise. */
export const WEBHOOK_LOG_DAYS = 90;

/** Whether an address may be plain http: only on this machine (a provider run beside it, a server tried locally). */
function loopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}

/** An identity provider's address: https, or http on this machine. */
const providerUrl = optionalText.pipe(
  z
    .url()
    .refine((v) => v.startsWith('https:') || (v.startsWith('http:') && loopback(v)), 'must be https://')
    .optional(),
);

/** Whether the claim that names an account holds a phone number or an e-mail address. */
const accountKind = z.enum(['phone', 'email']);

/**
 * A PEM certificate given inline (`-----BEGIN CERTIFICATE-----...`, its line breaks as they are or written `\n`) or
 * as its base64 body alone (as identity providers' consoles show it); kept as PEM.
 */
const certificate = optionalText.transform((v, ctx) => {
  if (v === undefined) return undefined;
  const body = v
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, '')
    .replace(/\\n/g, '')
    .replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+=*$/.test(body) || body.length < 100) {
    ctx.addIssue({ code: 'custom', message: 'must be a PEM certificate (or its base64 body)' });
    return z.NEVER;
  }
  let parsed: X509Certificate;
  try {
    parsed = new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a readable X.509 certificate' });
    return z.NEVER;
  }
  return parsed.toString().trim();
});

/** The address people reach this server at: PUBLIC_URL, or this machine's own at PORT. */
function publicUrlOf(env: { PUBLIC_URL?: string | undefined; PORT: number }): string {
  return env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;
}

/** The environment variables Examhall reads, with their defaults. */
const EnvSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    PUBLIC_URL: optionalText.pipe(z.url().optional()),
    API_PREFIX: z
      .string()
      .default('/api')
      .transform((v) => v.replace(/\/+$/, ''))
      .pipe(z.string().regex(/^(\/[A-Za-z0-9._-]+)*$/, "must be empty or like '/api'")),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: optionalText.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
        .optional(),
    ),
    REDIS_URL: optionalText.pipe(
      z
        .string()
        .regex(/^rediss?:\/\//, 'must start with redis://')
        .optional(),
    ),
    SMS_PROVIDER: z.enum(['console', 'webhook']).default('console'),
    SMS_WEBHOOK_URL: optionalText.pipe(z.url().optional()),
    SMS_RATE: z.coerce.number().int().min(1).max(10_000).default(50),
    /** Login codes a second at most, across the cluster; unset: all of SMS_RATE; 0: each sent in its request. */
    SMS_LOGIN_RATE: optionalText
      .transform((v) => (v === undefined ? undefined : Number(v)))
      .pipe(z.number().int().min(0).max(10_000).optional()),
    /** Seconds a login code may wait for its turn at the provider; past it the request is refused. */
    SMS_LOGIN_MAX_WAIT: z.coerce.number().int().min(0).max(600).default(120),
    /** Minutes between two resends of one invitation's text; 0: no interval. */
    SMS_RESEND_INTERVAL_MINUTES: z.coerce
      .number()
      .int()
      .min(0)
      .max(1440)
      .default(SMS_BUDGET_DEFAULTS.resendIntervalMs / 60_000),
    /** Resends of one invitation's text a day. */
    SMS_RESEND_DAILY: z.coerce.number().int().min(1).max(1000).default(SMS_BUDGET_DEFAULTS.resendDaily),
    /** Texts to one phone a day, every purpose together (login codes, invitations, reminders, resends). */
    SMS_PHONE_DAILY: z.coerce.number().int().min(1).max(10_000).default(SMS_BUDGET_DEFAULTS.phoneDaily),
    /** Texts to one exam's candidates a day. */
    SMS_EXAM_DAILY: z.coerce.number().int().min(1).default(SMS_BUDGET_DEFAULTS.examDaily),
    /** Texts to the candidates of one team's exams a day. */
    SMS_TEAM_DAILY: z.coerce.number().int().min(1).default(SMS_BUDGET_DEFAULTS.teamDaily),
    COOKIE_DOMAIN: z.string().trim().default(''),
    MAINTENANCE_FROM: serverTime('MAINTENANCE_FROM'),
    MAINTENANCE_TO: serverTime('MAINTENANCE_TO'),
    SUPPORT_PHONE: z.string().trim().default('400-820-0000'),
    ADMIN_PHONE: optionalText,
    ADMIN_PASSWORD: optionalText,
    DEMO_PHONE: z.string().trim().default('13800138000'),
    WEB_DIST: z.string().default(path.resolve(here, '../../web/dist')),
    /** Where browsers fetch the built files (a CDN holding a copy of WEB_DIST's files); empty: this server. */
    ASSET_BASE_URL: optionalText.pipe(
      z
        .url()
        .regex(/^https?:\/\/[^?#]+$/, 'must be an http(s) address with no query or fragment')
        .transform((v) => v.replace(/\/+$/, ''))
        .optional(),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ERROR_REPORT_URL: z.string().trim().default(''),
    /** Face-check worker threads; 0 means one per core. */
    FACE_WORKERS: z.coerce.number().int().min(0).max(64).default(0),
    /** The server checks about one in this many exam frames a browser did not flag; 0 checks none. */
    FACE_SAMPLE_EVERY: z.coerce.number().int().min(0).max(100000).default(10),
    ANALYTICS_URL: z.string().trim().default(''),
    TRUST_PROXY: z.enum(['true', 'false']).default('false'),
    STORAGE_MAX_OBJECT_MB: z.coerce.number().int().min(1).max(1024).default(20),
    STORAGE_QUOTA_MAX_MB: z.coerce
      .number()
      .int()
      .min(1)
      .max(1024 * 1024)
      .default(1024),
    STORAGE_QUOTA_MAX_OBJECTS: z.coerce.number().int().min(1).max(1_000_000).default(5000),
    /** MB of DATA_DIR's disk the local store leaves free for the database: evidence is refused before it. */
    STORAGE_RESERVE_MB: z.coerce
      .number()
      .int()
      .min(0)
      .max(1024 * 1024)
      .default(1024),
    S3_ENDPOINT: optionalText.pipe(z.url().optional()),
    S3_BUCKET: optionalText,
    S3_REGION: optionalText,
    S3_ACCESS_KEY_ID: optionalText,
    S3_SECRET_ACCESS_KEY: optionalText,
    S3_ROLE_ARN: optionalText,
    S3_STS_ENDPOINT: optionalText.pipe(z.url().optional()),
    S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
    STAFF_TOTP_REQUIRED_FOR_ADMINS: z.enum(['true', 'false']).default('false'),
    STAFF_LOGIN_IP_LIMIT: z.coerce.number().int().min(1).default(50),
    SSE_MAX_PER_TOKEN: z.coerce.number().int().min(1).default(8),
    SSE_MAX_PER_IP: z.coerce.number().int().min(1).default(1000),
    CLUSTER: z.enum(['true', 'false']).default('false'),
    PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
    ADMISSION_RATE: z.coerce.number().int().min(0).default(300),
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    METRICS_TOKEN: optionalText.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
    /** 'true' lets webhooks reach loopback, private and link-local addresses (an intranet's systems). */
    WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
    /** Days the webhook delivery log keeps a delivery once it is delivered or given up on. */
    WEBHOOK_LOG_DAYS: z.coerce.number().int().min(1).max(3650).default(WEBHOOK_LOG_DAYS),
    /** The key staff TOTP secrets are encrypted with at rest. */
    TOTP_KEY: totpKey,
    OIDC_ISSUER: providerUrl,
    OIDC_CLIENT_ID: optionalText,
    OIDC_CLIENT_SECRET: optionalText,
    OIDC_SCOPES: z.string().default('openid profile email phone'),
    OIDC_NAME: z.string().trim().min(1).max(40).default('SSO'),
    OIDC_ACCOUNT_CLAIM: z.string().min(1).default('phone_number'),
    OIDC_ACCOUNT_KIND: accountKind.default('phone'),
    OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
    SAML_IDP_SSO_URL: providerUrl,
    SAML_IDP_ISSUER: optionalText,
    SAML_IDP_CERT: certificate,
    SAML_SP_ENTITY_ID: optionalText,
    SAML_NAME: z.string().trim().min(1).max(40).default('SAML'),
    SAML_ACCOUNT_ATTRIBUTE: z.string().min(1).default('email'),
    SAML_ACCOUNT_KIND: accountKind.default('email'),
    SAML_GROUPS_ATTRIBUTE: z.string().min(1).default('groups'),
    SSO_CREATE_ACCOUNTS: z.enum(['true', 'false']).default('true'),
    NODE_ENV: optionalText,
  })
  .superRefine((env, ctx) => {
    const s3 = [
      env.S3_ENDPOINT,
      env.S3_BUCKET,
      env.S3_REGION,
      env.S3_ACCESS_KEY_ID,
      env.S3_SECRET_ACCESS_KEY,
      env.S3_ROLE_ARN,
    ];
    if (s3.some((v) => v !== undefined) && s3.some((v) => v === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['S3_ENDPOINT'],
        message:
          'S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and S3_ROLE_ARN go together',
      });
    }
    if (env.CLUSTER === 'true') {
      // Each part another process needs must be shared: nothing of one machine's own.
      if (!env.DATABASE_URL)
        ctx.addIssue({
          code: 'custom',
          path: ['DATABASE_URL'],
          message:
            'is required with CLUSTER=true: every process works on one PostgreSQL (SQLite is one machine’s file)',
        });
      if (!env.REDIS_URL)
        ctx.addIssue({
          code: 'custom',
          path: ['REDIS_URL'],
          message:
            'is required with CLUSTER=true: rate limits, live changes, queues and periodic work are shared through Redis',
        });
      if (s3.some((v) => v === undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['S3_ENDPOINT'],
          message:
            'an S3-compatible store is required with CLUSTER=true: the local store (DATA_DIR/objects) is one machine’s disk, which the other processes cannot read',
        });
    }
    if (env.TOTP_KEY === undefined && env.NODE_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['TOTP_KEY'],
        message:
          'is required with NODE_ENV=production: staff TOTP secrets are encrypted with it (openssl rand -base64 32)',
      });
    } else if (env.TOTP_KEY === undefined && env.CLUSTER === 'true') {
      // A key generated in one machine's DATA_DIR would leave the other processes unable to read the secrets.
      ctx.addIssue({
        code: 'custom',
        path: ['TOTP_KEY'],
        message: 'is required with CLUSTER=true: every process reads the TOTP secrets the others encrypted',
      });
    }
    if (env.SMS_LOGIN_RATE !== undefined && env.SMS_LOGIN_RATE > env.SMS_RATE) {
      ctx.addIssue({
        code: 'custom',
        path: ['SMS_LOGIN_RATE'],
        message: 'must not exceed SMS_RATE: login codes are part of what the provider takes a second',
      });
    }
    if (env.SMS_PROVIDER === 'webhook' && !env.SMS_WEBHOOK_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMS_WEBHOOK_URL'], message: 'is required when SMS_PROVIDER=webhook' });
    }
    if ((env.MAINTENANCE_FROM === undefined) !== (env.MAINTENANCE_TO === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['MAINTENANCE_TO'],
        message: 'MAINTENANCE_FROM and MAINTENANCE_TO go together',
      });
    }
    if (
      env.MAINTENANCE_FROM !== undefined &&
      env.MAINTENANCE_TO !== undefined &&
      env.MAINTENANCE_TO <= env.MAINTENANCE_FROM
    ) {
      ctx.addIssue({ code: 'custom', path: ['MAINTENANCE_TO'], message: 'must be after MAINTENANCE_FROM' });
    }
    const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
    if (oidc.some((v) => v !== undefined) && oidc.some((v) => v === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ISSUER'],
        message: 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together',
      });
    }
    if (env.OIDC_ISSUER !== undefined && !env.OIDC_SCOPES.split(/\s+/).includes('openid')) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_SCOPES'], message: "must include 'openid'" });
    }
    const saml = [env.SAML_IDP_SSO_URL, env.SAML_IDP_ISSUER, env.SAML_IDP_CERT];
    if (saml.some((v) => v !== undefined) && saml.some((v) => v === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['SAML_IDP_SSO_URL'],
        message: 'SAML_IDP_SSO_URL, SAML_IDP_ISSUER and SAML_IDP_CERT go together',
      });
    }
    // The provider's answer is a POST from its own site, which brings a cookie back only when it is SameSite=None,
    // and browsers take such a cookie only as Secure: from https, or from this machine's own address.
    const publicUrl = publicUrlOf(env);
    if (env.SAML_IDP_SSO_URL !== undefined && !publicUrl.startsWith('https:') && !loopback(publicUrl)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message:
          "must be https:// for SAML sign-in: the browser brings the sign-in cookie back with the provider's answer only over https",
      });
    }
    if ((env.ADMIN_PHONE === undefined) !== (env.ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'ADMIN_PHONE and ADMIN_PASSWORD go together' });
    }
    if (env.ADMIN_PASSWORD !== undefined && env.ADMIN_PASSWORD.length < 8) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'must be at least 8 characters' });
    }
  });

/** Validated configuration. */
export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  apiPrefix: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /**
   * SMS delivery. `rate` is how many texts (login codes, invitations, reminders) go out a second at most, across
   * the cluster; login codes take up to `loginRate` of it first (0: each code is sent in its request, unpaced),
   * and a code that would wait longer than `loginMaxWaitMs` for its turn is refused. `budgets`: how many texts
   * may go out at all, per invitation, phone, exam and team (services/smsBudget.ts).
   */
  sms: {
    provider: 'console' | 'webhook';
    webhookUrl: string | undefined;
    rate: number;
    loginRate: number;
    loginMaxWaitMs: number;
    budgets: SmsBudgets;
  };
  cookieDomain: string;
  maintenance: { from: number; to: number } | null;
  supportPhone: string;
  admin: { phone: string; password: string } | null;
  demoPhone: string;
  webDist: string;
  /** Where browsers fetch the built files (no trailing slash), or '' for this server. */
  assetBaseUrl: string;
  logLevel: string;
  errorReportUrl: string;
  analyticsUrl: string;
  trustProxy: boolean;
  /** Largest object the local store accepts, bytes. */
  storageMaxObjectBytes: number;
  /** The most any attempt's quota may be, whatever its exam's captures would need. */
  storageQuotaCeiling: { maxBytes: number; maxObjects: number };
  /** Bytes of DATA_DIR's disk the local store leaves free, so that answers can always be saved. */
  storageReserveBytes: number;
  /** Face-check worker threads (each loads its own models); 0 means one per core. */
  faceWorkers: number;
  /** The server checks about one in this many exam frames the browser did not flag (0: none). */
  faceSampleEvery: number;
  /** True when several processes serve together: every part is shared (PostgreSQL, Redis, an S3-compatible store). */
  cluster: boolean;
  /**
   * API processes `npm start` runs under its supervisor, beside one worker process for jobs and periodic tasks;
   * 1 runs everything in one process. Default: one per core. Not used with CLUSTER=true (each process is one).
   */
  processes: number;
  /** Candidates entering the exam a second, across every process, when many press start at once (0: no pacing). */
  admissionRate: number;
  /** S3-compatible storage; null for the embedded local store. */
  s3: S3Config | null;
  /** Whether admin accounts must log in with a second factor (TOTP); they are led to enrol first. */
  staffTotpRequiredForAdmins: boolean;
  /** Staff login attempts one address may make per login window (STAFF_LOGIN_RULES.windowMs), besides the lock per account. */
  staffLoginIpLimit: number;
  /** Event streams open at once: per token, and per client address. */
  sseLimits: { perToken: number; perIp: number };
  /** Bearer token /metrics asks for; without one it answers loopback callers only. */
  metricsToken: string | undefined;
  /**
   * Where a process that answers no calls serves /healthz, /readyz and /metrics: the supervisor's worker process
   * and `examhall judge-worker`; none when absent.
   */
  metricsPort: number | undefined;
  /** True when webhooks may reach loopback, private and link-local addresses. */
  webhookAllowPrivate: boolean;
  /** Days the delivery log keeps a settled delivery. */
  webhookLogDays: number;
  /** How long a stopping process lets requests in flight finish before it cuts them off, ms. */
  shutdownGraceMs: number;
  /**
   * The AES-256 key staff TOTP secrets are encrypted with (TOTP_KEY); undefined outside production and a cluster,
   * where one is generated in DATA_DIR on first use (services/totpSecrets.ts).
   */
  totpKey: Buffer | undefined;
  /** OpenID Connect sign-in for staff, or null when not set up. */
  oidc: OidcConfig | null;
  /** SAML 2.0 sign-in for staff, or null when not set up. */
  saml: SamlConfig | null;
  /** Whether single sign-on makes an account on a first sign-in from the provider's claims (else only known accounts). */
  ssoCreateAccounts: boolean;
}

/** What both single sign-on methods say about who signs in. */
export interface SsoClaims {
  /** The name on the login page's button. */
  name: string;
  /** The claim (attribute) that names the account. */
  accountClaim: string;
  /** Whether it holds a phone number or an e-mail. */
  accountKind: 'phone' | 'email';
  /** The claim (attribute) that lists the groups. */
  groupsClaim: string;
}

/** OpenID Connect settings. */
export interface OidcConfig extends SsoClaims {
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
}

/** SAML 2.0 settings. */
export interface SamlConfig extends SsoClaims {
  /** The identity provider's single sign-on address (the AuthnRequest goes there, HTTP-Redirect binding). */
  entryPoint: string;
  /** The identity provider's entity id (the Issuer of its assertions). */
  idpIssuer: string;
  /** The certificate its assertions are signed with (PEM). */
  idpCert: string;
  /** This site's entity id, when set (else its metadata's address): the audience its assertions must name. */
  spEntityId: string | undefined;
}

/** S3-compatible storage settings. */
export interface S3Config {
  /** Endpoint URL (browsers upload here too). */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Role assumed (STS AssumeRole) for the browser's upload credentials. */
  roleArn: string;
  /** STS endpoint; the SDK's default for the region when unset. */
  stsEndpoint: string | undefined;
  /** Path-style URLs (`endpoint/bucket/key`), as most S3-compatible servers want. */
  forcePathStyle: boolean;
}

/** Thrown when the environment is invalid; the message lists every problem. */
export class ConfigError extends Error {}

/** Reads and validates the configuration once; throws ConfigError with one line per problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'environment'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: publicUrlOf(e),
    apiPrefix: e.API_PREFIX,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    sms: {
      provider: e.SMS_PROVIDER,
      webhookUrl: e.SMS_WEBHOOK_URL,
      rate: e.SMS_RATE,
      loginRate: e.SMS_LOGIN_RATE ?? e.SMS_RATE,
      loginMaxWaitMs: e.SMS_LOGIN_MAX_WAIT * 1000,
      budgets: {
        resendIntervalMs: e.SMS_RESEND_INTERVAL_MINUTES * 60_000,
        resendDaily: e.SMS_RESEND_DAILY,
        phoneDaily: e.SMS_PHONE_DAILY,
        examDaily: e.SMS_EXAM_DAILY,
        teamDaily: e.SMS_TEAM_DAILY,
      },
    },
    cookieDomain: e.COOKIE_DOMAIN,
    maintenance:
      e.MAINTENANCE_FROM !== undefined && e.MAINTENANCE_TO !== undefined
        ? { from: e.MAINTENANCE_FROM, to: e.MAINTENANCE_TO }
        : null,
    supportPhone: e.SUPPORT_PHONE,
    admin: e.ADMIN_PHONE && e.ADMIN_PASSWORD ? { phone: e.ADMIN_PHONE, password: e.ADMIN_PASSWORD } : null,
    demoPhone: e.DEMO_PHONE,
    webDist: path.resolve(e.WEB_DIST),
    assetBaseUrl: e.ASSET_BASE_URL ?? '',
    logLevel: e.LOG_LEVEL,
    errorReportUrl: e.ERROR_REPORT_URL,
    analyticsUrl: e.ANALYTICS_URL,
    trustProxy: e.TRUST_PROXY === 'true',
    storageMaxObjectBytes: e.STORAGE_MAX_OBJECT_MB * 1024 * 1024,
    storageQuotaCeiling: { maxBytes: e.STORAGE_QUOTA_MAX_MB * 1024 * 1024, maxObjects: e.STORAGE_QUOTA_MAX_OBJECTS },
    storageReserveBytes: e.STORAGE_RESERVE_MB * 1024 * 1024,
    faceWorkers: e.FACE_WORKERS,
    faceSampleEvery: e.FACE_SAMPLE_EVERY,
    staffTotpRequiredForAdmins: e.STAFF_TOTP_REQUIRED_FOR_ADMINS === 'true',
    staffLoginIpLimit: e.STAFF_LOGIN_IP_LIMIT,
    sseLimits: { perToken: e.SSE_MAX_PER_TOKEN, perIp: e.SSE_MAX_PER_IP },
    cluster: e.CLUSTER === 'true',
    processes: e.PROCESSES ?? availableParallelism(),
    admissionRate: e.ADMISSION_RATE,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookLogDays: e.WEBHOOK_LOG_DAYS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    totpKey: e.TOTP_KEY,
    oidc:
      e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_CLIENT_SECRET
        ? {
            issuer: e.OIDC_ISSUER,
            clientId: e.OIDC_CLIENT_ID,
            clientSecret: e.OIDC_CLIENT_SECRET,
            scopes: e.OIDC_SCOPES,
            name: e.OIDC_NAME,
            accountClaim: e.OIDC_ACCOUNT_CLAIM,
            accountKind: e.OIDC_ACCOUNT_KIND,
            groupsClaim: e.OIDC_GROUPS_CLAIM,
          }
        : null,
    saml:
      e.SAML_IDP_SSO_URL && e.SAML_IDP_ISSUER && e.SAML_IDP_CERT
        ? {
            entryPoint: e.SAML_IDP_SSO_URL,
            idpIssuer: e.SAML_IDP_ISSUER,
            idpCert: e.SAML_IDP_CERT,
            spEntityId: e.SAML_SP_ENTITY_ID,
            name: e.SAML_NAME,
            accountClaim: e.SAML_ACCOUNT_ATTRIBUTE,
            accountKind: e.SAML_ACCOUNT_KIND,
            groupsClaim: e.SAML_GROUPS_ATTRIBUTE,
          }
        : null,
    ssoCreateAccounts: e.SSO_CREATE_ACCOUNTS === 'true',
    s3:
      e.S3_ENDPOINT && e.S3_BUCKET && e.S3_REGION && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY && e.S3_ROLE_ARN
        ? {
            endpoint: e.S3_ENDPOINT.replace(/\/+$/, ''),
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            roleArn: e.S3_ROLE_ARN,
            stsEndpoint: e.S3_STS_ENDPOINT,
            forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
          }
        : null,
  };
}
