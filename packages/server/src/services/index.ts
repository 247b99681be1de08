import type { JobKind } from '@examhall/contract';
import type { JudgeQueue } from '@examhall/judge';
import { NO_INSTRUMENTS, type Instruments } from '../ops/metrics.js';
import type { ServiceLog } from '../log.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { openJobQueue, type JobHandlers, type JobQueue, type JobsSetup } from '../jobs/index.js';
import type { JobContext } from '../jobs/types.js';
import { FacePool } from '../proctoring/face/pool.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import { AdmissionService } from './admission.js';
import { StreamAdmission } from '../ratelimit/streams.js';
import type { SmsSender } from '../sms/sender.js';
import { LocalObjectStore, type ObjectStore } from '../storage/objectStore.js';
import { AssumeRoleIssuer, LocalCredentialIssuer, type UploadCredentialIssuer } from '../storage/sts.js';
import { AccessService } from './access.js';
import { AnalysisService, type ItemAnalysisPayload } from './analysis.js';
import { AnswerService } from './answers.js';
import { AttemptService } from './attempts.js';
import { AuditService } from './audit.js';
import { BankService } from './bank.js';
import { GradingService, type RescorePayload } from './grading.js';
import { ImportService } from './imports.js';
import { JobService } from './jobs.js';
import { InvitationService } from './invitations.js';
import { SmsDispatcher } from './smsDispatch.js';
import { SmsPacer } from './smsPacing.js';
import { SmsBudget } from './smsBudget.js';
import { CandidateService } from './candidates.js';
import { ExamCandidateService } from './examCandidates.js';
import { CandidateAuthService } from './candidateAuth.js';
import { ExamCatalog } from './catalog.js';
import { DeviceCheckService } from './deviceChecks.js';
import { ExamEditorService } from './examEditor.js';
import { ExamPreviewService } from './examPreview.js';
import { EvidenceIntakeService } from './evidence/intake.js';
import { PhonePageService } from './evidence/phone.js';
import { EvidenceVerificationService } from './evidence/verification.js';
import { FaceCheckService } from './faceCheck.js';
import { FaceVerificationService } from './faceVerification.js';
import { HomeService } from './home.js';
import { ExamService } from './exams.js';
import { JudgeService } from './judging.js';
import { MediaLinks } from './media.js';
import { ProctorService } from './proctor.js';
import { ProfileService } from './profile.js';
import { ResultsService } from './results.js';
import { ResultsExportService, type ResultExportPayload } from './resultsExport.js';
import { RiskService } from './risk.js';
import { ScheduleService } from './schedule.js';
import { SimilarityService } from './similarity.js';
import { SiteService } from './site.js';
import { StaffService } from './staff.js';
import { TeamService } from './teams.js';
import { TokenService } from './tokens.js';
import { ApiTokenService } from './apiTokens.js';
import { ResultFeedService } from './resultFeed.js';
import { WebhookService } from './webhooks.js';

/** Everything services need from outside. */
export interface ServiceDeps {
  config: Config;
  db: Db;
  limiter: RateLimiter;
  sms: SmsSender;
  store: ObjectStore;
  clock: () => number;
  log: ServiceLog;
  /** Group-commit batches of answer saves in flight at once (the dialect decides). */
  groupCommitLanes: number;
  /** Where code is judged. */
  judgeQueue: JudgeQueue;
  /** Where proctoring changes are announced. */
  notifier: ProctorNotifier;
  /** Where jobs run (Redis or this process) and how (default: this process; the command line starts no runner). */
  jobs?: JobsSetup;
  /** Where saves, judge runs, face checks and event streams are reported (default: nowhere). */
  metrics?: Instruments;
}

/** The services, built once per app. */
export interface Services {
  clock: () => number;
  store: ObjectStore;
  notifier: ProctorNotifier;
  /** Where instrumented work is reported (metrics). */
  metrics: Instruments;
  /** Access per resource: `access.require(actor, permission, kind, ids)`, `teamFilter`, `examFilter`. */
  access: AccessService;
  /** The audit log: `audit.record(actor, action, { kind, id }, before, after)`, `audit.with(trx)`. */
  audit: AuditService;
  /** The question bank: folders, questions, tags, uploads, reference checks; `getForPublish`, `poolFor` for exams. */
  bank: BankService;
  /** Question imports into the bank (preview, commit) and exports of folders, selections and exams. */
  imports: ImportService;
  /** Jobs staff started (imports, ...): list, detail, cancel, and `start` for the services that queue them. */
  jobs: JobService;
  /** Invitations by SMS: bulk (a job), resends, revocations, each exam's texts and their delivery. */
  invitations: InvitationService;
  /** Sends queued texts at the configured rate and queues reminders (periodic tasks). */
  smsDispatch: SmsDispatcher;
  /** How many texts may go out, per invitation, phone, exam and team. */
  smsBudget: SmsBudget;
  /** The job queue itself (started and closed with the app). */
  jobQueue: JobQueue<JobKind>;
  /** The candidate directory: add, edit, list, import (a job: `candidate_import`). */
  candidates: CandidateService;
  /** Code similarity per programming question: the job (`code_similarity`), pairs, one pair, decisions. */
  similarity: SimilarityService;
  /** Item analysis of an exam's questions over its finished attempts, and the flags it records for authors. */
  analysis: AnalysisService;
  /** An exam's invited candidates with their status, counts and export. */
  examCandidates: ExamCandidateService;
  /** Teams and the proctors and graders assigned to exams. */
  teams: TeamService;
  /** The console home's counts. */
  home: HomeService;
  /** Grading: graders per exam or section, queues, marks, reconciliation, progress, key corrections (`rescore`). */
  grading: GradingService;
  /** Results: rankings, one attempt's report, the figures for charts, dimensions. */
  results: ResultsService;
  /** Exports of the results as files (`results_export` jobs) and their download. */
  resultsExport: ResultsExportService;
  tokens: TokenService;
  /** Webhooks: endpoints, the outbox of final scores (`noteScore`), the deliverer (`deliver`) and its log. */
  webhooks: WebhookService;
  /** API tokens other systems read results with. */
  apiTokens: ApiTokenService;
  /** Final results as other systems read them. */
  resultFeed: ResultFeedService;
  candidateAuth: CandidateAuthService;
  staff: StaffService;
  exams: ExamService;
  /** The exam editor: drafts, published versions, live changes, copy, archive, preview, invitations. */
  examEditor: ExamEditorService;
  /** Staff taking an exam's draft as a candidate would, and the keys of what they were shown. */
  examPreview: ExamPreviewService;
  /** Time slots, each invitation's slot, extra time and personal window, reopening attempts; the candidate's slot. */
  schedule: ScheduleService;
  /** Exams as candidates read them: versions cached by id (immutable), the exams row for a few seconds. */
  catalog: ExamCatalog;
  attempts: AttemptService;
  answers: AnswerService;
  risk: RiskService;
  /** Upload credentials, captures, recordings and monitor data, and pictures the server takes. */
  evidence: EvidenceIntakeService;
  /** The phone as a second camera: its link, session, pictures and presence. */
  phone: PhonePageService;
  /** Re-checks an attempt's chain and every stored evidence file. */
  verification: EvidenceVerificationService;
  /** Face checks of camera pictures (worker-thread engine pool, started on first use). */
  faceCheck: FaceCheckService;
  /** The server's checks of the exam frames browsers flag, and of a sample of the others. */
  faceVerification: FaceVerificationService;
  /** The device checks' outcomes: a pass only on what the server sees, a skip only where the exam allows it. */
  checks: DeviceCheckService;
  judge: JudgeService;
  profile: ProfileService;
  /** The proctor console and the candidate's integrity log. */
  proctor: ProctorService;
  media: MediaLinks;
  site: SiteService;
  /** Places for open event streams, limited per token and per address. */
  streams: StreamAdmission;
}

/** Who issues the browser's upload credentials: STS AssumeRole on S3-compatible storage, else the local store. */
function uploadIssuer(deps: ServiceDeps): UploadCredentialIssuer | null {
  if (deps.config.s3) return new AssumeRoleIssuer(deps.config.s3);
  if (deps.store instanceof LocalObjectStore && deps.store.credentials)
    return new LocalCredentialIssuer(deps.store.credentials);
  return null;
}

/** Wires the services. */
/** Entries this far ahead of their turn go at once: a second's worth of a start wave needs no queue. */
const ADMISSION_BURST_MS = 1000;

export function createServices(deps: ServiceDeps): Services {
  const { db, clock, store } = deps;
  const metrics = deps.metrics ?? NO_INSTRUMENTS;
  const tokens = new TokenService(db, clock);
  const access = new AccessService(db);
  const audit = new AuditService(db, clock);
  const media = new MediaLinks(db, clock);
  const bank = new BankService(
    db,
    access,
    audit,
    store,
    media,
    deps.judgeQueue,
    deps.config.apiPrefix,
    clock,
    deps.log,
  );
  // Handlers are filled in below, once the services that do the work exist.
  const handlers = {} as JobHandlers<JobKind>;
  const jobQueue = openJobQueue(db, handlers, { metrics, ...deps.jobs });
  const jobs = new JobService(db, jobQueue, access, audit);
  const staff = new StaffService({ ...deps, tokens, access, audit });
  const imports = new ImportService(db, access, audit, bank, store, jobs, (id) => staff.actorById(id));
  const smsBudget = new SmsBudget(deps.config.sms.budgets, clock);
  const invitations = new InvitationService(db, {
    access,
    audit,
    jobs,
    budget: smsBudget,
    publicUrl: deps.config.publicUrl,
    clock,
  });
  const candidates = new CandidateService(db, access, audit, store, jobs, clock, invitations);
  const similarity = new SimilarityService(db, access, audit, jobs, clock);
  const kinds: JobHandlers<JobKind> = {
    bank_import: (ctx) => imports.runImport(ctx),
    invitation_bulk: (ctx) => invitations.runBulk(ctx),
    candidate_import: (ctx) => candidates.runImport(ctx, (id) => staff.actorById(id)),
    code_similarity: (ctx) => similarity.run(ctx),
    rescore: (ctx) => grading.runRescore(ctx as unknown as JobContext<RescorePayload>),
    results_export: (ctx) => resultsExport.runExport(ctx as unknown as JobContext<ResultExportPayload>),
    item_analysis: (ctx) => analysis.run(ctx as unknown as JobContext<ItemAnalysisPayload>),
  };
  Object.assign(handlers, kinds);
  const catalog = new ExamCatalog(db, clock);
  const resultFeed = new ResultFeedService(db, catalog);
  const webhooks = new WebhookService(db, {
    audit,
    results: resultFeed,
    clock,
    log: deps.log,
    allowPrivate: deps.config.webhookAllowPrivate,
    logDays: deps.config.webhookLogDays,
  });
  const smsPacer = new SmsPacer(deps.limiter, deps.config.sms);
  const admission = new AdmissionService(deps.limiter, {
    rate: deps.config.admissionRate,
    burstMs: ADMISSION_BURST_MS,
    clock,
  });
  const attempts = new AttemptService(db, catalog, clock, deps.log, admission, deps.notifier, webhooks);
  const grading = new GradingService(db, {
    access,
    audit,
    attempts,
    catalog,
    jobs,
    store,
    clock,
    log: deps.log,
    outbox: webhooks,
    actorById: (id) => staff.actorById(id),
  });
  const results = new ResultsService(db, { access, attempts, catalog });
  const resultsExport = new ResultsExportService(db, {
    ranking: results,
    access,
    audit,
    catalog,
    jobs,
    store,
    log: deps.log,
  });
  const analysis = new AnalysisService(db, { access, jobs, catalog, clock, log: deps.log });
  const risk = new RiskService(db, attempts, clock, deps.notifier);
  const evidence = new EvidenceIntakeService(
    db,
    attempts,
    risk,
    store,
    uploadIssuer(deps),
    deps.notifier,
    deps.config,
    clock,
  );
  const phone = new PhonePageService(db, attempts, evidence, tokens, deps.notifier, deps.config, clock);
  const verification = new EvidenceVerificationService(db, attempts, store, access);
  const faceCheck = new FaceCheckService(
    db,
    attempts,
    evidence,
    risk,
    store,
    access,
    audit,
    new FacePool({ size: deps.config.faceWorkers || undefined }),
    clock,
    deps.log,
    metrics,
  );
  const faceVerification = new FaceVerificationService(db, attempts, faceCheck, risk, store, {
    sampleEvery: deps.config.faceSampleEvery,
    clock,
    log: deps.log,
  });
  // Queued in the candidate's call (one insert); a failure to queue loses a check, never the record.
  risk.afterRecord = (r) =>
    faceVerification.flagged(r).catch((err: unknown) => deps.log.warn({ err }, 'face check of a flag not queued'));
  evidence.afterFrame = (f) =>
    faceVerification
      .frameRecorded(f)
      .catch((err: unknown) => deps.log.warn({ err }, 'face check of a frame not queued'));
  return {
    clock,
    store,
    notifier: deps.notifier,
    metrics,
    access,
    audit,
    bank,
    imports,
    jobs,
    invitations,
    smsDispatch: new SmsDispatcher(db, deps.sms, invitations, { pacer: smsPacer, clock, log: deps.log }),
    smsBudget,
    jobQueue,
    candidates,
    similarity,
    analysis,
    examCandidates: new ExamCandidateService(db, access, audit, clock),
    teams: new TeamService(db, access, audit, clock),
    home: new HomeService(db, access, analysis, clock),
    grading,
    results,
    resultsExport,
    tokens,
    webhooks,
    apiTokens: new ApiTokenService(db, audit, clock, deps.limiter),
    resultFeed,
    candidateAuth: new CandidateAuthService({ ...deps, tokens, pacer: smsPacer, budget: smsBudget }),
    staff,
    exams: new ExamService(db, attempts, clock),
    schedule: new ScheduleService(db, { access, audit, attempts, notifier: deps.notifier, clock }),
    catalog,
    examEditor: new ExamEditorService(db, {
      access,
      audit,
      bank,
      catalog,
      notifier: deps.notifier,
      invitations,
      clock,
    }),
    examPreview: new ExamPreviewService(db, { access, audit, bank, catalog, tokens, clock }),
    attempts,
    answers: new AnswerService(db, attempts, store, clock, deps.groupCommitLanes, metrics),
    risk,
    evidence,
    phone,
    verification,
    faceCheck,
    faceVerification,
    checks: new DeviceCheckService(db, attempts, risk, faceCheck, clock),
    judge: new JudgeService(db, attempts, deps.judgeQueue, deps.limiter, clock, deps.log, metrics),
    profile: new ProfileService(db, store, clock),
    proctor: new ProctorService(db, attempts, store, deps.notifier, access, audit, clock, deps.log),
    media,
    site: new SiteService(deps.config, clock),
    streams: new StreamAdmission(deps.limiter, deps.config.sseLimits),
  };
}
