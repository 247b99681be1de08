import type { JobKind } from '@examhall/contract';
import { NO_INSTRUMENTS } from '../ops/metrics.js';
import type { Db } from '../db/database.js';
import { openJobQueue, type JobHandlers } from '../jobs/index.js';
import type { JobContext } from '../jobs/types.js';
import { FacePool } from '../proctoring/face/pool.js';
import { AdmissionService } from './admission.js';
import { StreamAdmission } from '../ratelimit/streams.js';
import { LocalObjectStore } from '../storage/objectStore.js';
import { AssumeRoleIssuer, LocalCredentialIssuer, type UploadCredentialIssuer } from '../storage/sts.js';
import { AccessService } from './access.js';
import { AnalysisService, type ItemAnalysisPayload } from './analysis.js';
import { AnswerService, type AnswerDeps } from './answers.js';
import { EvaluationSectionService, type EvaluationSectionDeps } from './evaluationSection.js';
import { ExamQuestionService, type ExamQuestionDeps } from './examQuestions.js';
import { AttemptService } from './attempts.js';
import { AttemptEntryService } from './attemptEntry.js';
import { AttemptResultService } from './attemptResults.js';
import { AuditService } from './audit.js';
import { BankBulkService } from './bank/bulk.js';
import { BankFolderService } from './bank/folders.js';
import { BankPoolService } from './bank/pools.js';
import { BankQuestionService } from './bank/questions.js';
import { BankReferenceCheckService } from './bank/referenceCheck.js';
import { BankTransferService } from './bank/transfer.js';
import { BankUploadService } from './bank/uploads.js';
import { GradingService, type GradingDeps } from './grading.js';
import { GradingSetupService, type GradingSetupDeps } from './gradingSetup.js';
import { RescoreService, type RescoreDeps, type RescorePayload } from './rescoring.js';
import { ImportService } from './imports.js';
import { QuestionExportService } from './questionExports.js';
import { JobService } from './jobs.js';
import { InvitationService, type InvitationDeps } from './invitations.js';
import { BulkInviteService, type BulkInviteDeps } from './bulkInvite.js';
import { InvitationChangeService, type InvitationChangeDeps } from './invitationChanges.js';
import { InvitationTexts, type InvitationTextDeps } from './invitationTexts.js';
import { ExamSmsService, type ExamSmsDeps } from './examSms.js';
import { SmsDispatcher } from './smsDispatch.js';
import { SmsPacer } from './smsPacing.js';
import { SmsBudget } from './smsBudget.js';
import { CandidateService } from './candidates.js';
import { CandidateRepository } from '../repositories/candidates.js';
import { CandidateImportService } from './candidateImport.js';
import { ExamCandidateService } from './examCandidates.js';
import { CandidateAuthService } from './candidateAuth.js';
import { CandidateSessions } from './candidateSessions.js';
import { ExamCatalog } from './catalog.js';
import { DeviceCheckService } from './deviceChecks.js';
import { ExamEditorService } from './examEditor.js';
import { SafeExamBrowserService } from './safeExamBrowser.js';
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
import { DimensionReportService } from './resultDimensions.js';
import { ResultsService } from './results.js';
import { ResultsExportService, type ResultExportPayload } from './resultsExport.js';
import { RiskService } from './risk.js';
import { SlotService, type SlotDeps } from './scheduleSlots.js';
import { AccommodationService, type AccommodationDeps } from './accommodations.js';
import { ReopenService, type ReopenDeps } from './reopen.js';
import { SlotChoiceService, type SlotChoiceDeps } from './slotChoice.js';
import { SimilarityService } from './similarity.js';
import { SiteService } from './site.js';
import { StaffService } from './staff.js';
import { StaffCredentials } from './staffCredentials.js';
import { StaffLoginService } from './staffLogin.js';
import { StaffSessionService } from './staffSessions.js';
import { StaffTotpService } from './staffTotp.js';
import { OidcService } from './oidc.js';
import { SamlService } from './saml.js';
import { SsoAdminService } from './ssoAdmin.js';
import { SsoSignInService } from './ssoSignIn.js';
import { TeamService } from './teams.js';
import { TokenService } from './tokens.js';
import { ApiTokenService } from './apiTokens.js';
import { ResultFeedService } from './resultFeed.js';
import { WebhookService } from './webhooks.js';

import type { ServiceDeps, Services } from './types.js';

export type { ServiceDeps, Services } from './types.js';

/** Who issues the browser's upload credentials: STS AssumeRole on S3-compatible storage, else the local store. */
function uploadIssuer(deps: ServiceDeps): UploadCredentialIssuer | null {
  if (deps.config.s3) return new AssumeRoleIssuer(deps.config.s3);
  if (deps.store instanceof LocalObjectStore && deps.store.credentials)
    return new LocalCredentialIssuer(deps.store.credentials);
  return null;
}

/** The question bank, one service per job (services/bank/), each with only the dependencies it uses. */
function bankServices(deps: ServiceDeps, shared: { access: AccessService; audit: AuditService; media: MediaLinks }) {
  const bankDeps = { db: deps.db, access: shared.access, audit: shared.audit, clock: deps.clock, log: deps.log };
  return {
    bankFolders: new BankFolderService(bankDeps),
    bankQuestions: new BankQuestionService(bankDeps),
    bankBulk: new BankBulkService(bankDeps),
    bankUploads: new BankUploadService({
      ...bankDeps,
      store: deps.store,
      media: shared.media,
      apiPrefix: deps.config.apiPrefix,
    }),
    bankReferenceCheck: new BankReferenceCheckService({ ...bankDeps, judgeQueue: deps.judgeQueue }),
    bankPools: new BankPoolService(bankDeps),
    bankTransfer: new BankTransferService(bankDeps),
  };
}

/** Staff accounts, sign-in, sessions and the second factor, sharing one set of credential checks (and its password hasher). */
function staffServices(deps: ServiceDeps & Pick<Services, 'tokens' | 'access' | 'audit'>) {
  const credentials = new StaffCredentials(deps.db, deps);
  const ssoAdmin = new SsoAdminService(deps.db, deps);
  const all = { ...deps, credentials, ssoPolicy: () => ssoAdmin.policy() };
  const ssoSignIn = new SsoSignInService(deps.db, all);
  return {
    ssoAdmin,
    ssoSignIn,
    oidc: new OidcService(deps.db, { ...deps, signIn: ssoSignIn }),
    saml: new SamlService(deps.db, { ...deps, signIn: ssoSignIn }),
    staff: new StaffService(deps.db, all),
    staffLogin: new StaffLoginService(deps.db, all),
    staffSessions: new StaffSessionService(all),
    staffTotp: new StaffTotpService(deps.db, all),
  };
}

/** Marking, its set-up and key corrections. */
function gradingServices(db: Db, deps: GradingDeps & GradingSetupDeps & RescoreDeps) {
  return {
    grading: new GradingService(db, deps),
    gradingSetup: new GradingSetupService(db, deps),
    rescoring: new RescoreService(db, deps),
  };
}

/** Answer saves, the questions as shown, and the evaluation section, which commits its answers through the saves. */
function answerServices(db: Db, deps: AnswerDeps & ExamQuestionDeps & Omit<EvaluationSectionDeps, 'answers'>) {
  const answers = new AnswerService(db, deps);
  return {
    answers,
    examQuestions: new ExamQuestionService(db, deps),
    evaluationSection: new EvaluationSectionService(db, { ...deps, answers }),
  };
}

/** Where invitations are made, their texts, the bulk job, resends and revocations, and each exam's texts. */
function invitationServices(
  db: Db,
  deps: InvitationDeps &
    InvitationTextDeps &
    Omit<BulkInviteDeps, 'invitations' | 'texts'> &
    Omit<InvitationChangeDeps, 'texts'> &
    Omit<ExamSmsDeps, 'texts'>,
) {
  const invitations = new InvitationService(deps);
  const texts = new InvitationTexts(db, deps);
  return {
    invitations,
    invitationTexts: texts,
    bulkInvite: new BulkInviteService(db, { ...deps, invitations, texts }),
    invitationChanges: new InvitationChangeService(db, { ...deps, texts }),
    examSms: new ExamSmsService(db, { ...deps, texts }),
  };
}

/** Time slots, accommodations, reopening and the candidate's slot choice (schedule.ts and the files beside it). */
function scheduleServices(db: Db, deps: SlotDeps & AccommodationDeps & ReopenDeps & SlotChoiceDeps) {
  return {
    slots: new SlotService(db, deps),
    accommodations: new AccommodationService(db, deps),
    reopen: new ReopenService(db, deps),
    slotChoice: new SlotChoiceService(db, deps),
  };
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
  const bank = bankServices(deps, { access, audit, media });
  const { bankFolders, bankQuestions, bankUploads, bankReferenceCheck, bankPools, bankTransfer } = bank;
  // What publishing and previews need of the bank (examVersions.ts).
  const publishBank = { pools: bankPools, referenceCheck: bankReferenceCheck };
  // Handlers are filled in below, once the services that do the work exist.
  const handlers = {} as JobHandlers<JobKind>;
  const jobQueue = openJobQueue(db, handlers, { metrics, ...deps.jobs });
  const jobs = new JobService(db, jobQueue, access, audit);
  const staff = staffServices({ ...deps, tokens, access, audit });
  // What the services that run jobs as the staff member who started them share.
  const jobDeps = {
    access,
    audit,
    store,
    jobs,
    clock,
    log: deps.log,
    actorById: (id: number) => staff.staff.actorById(id),
  };
  const imports = new ImportService(db, {
    ...jobDeps,
    bank: { folders: bankFolders, questions: bankQuestions, uploads: bankUploads, transfer: bankTransfer },
  });
  const smsBudget = new SmsBudget(deps.config.sms.budgets, clock);
  const inviting = invitationServices(db, { ...jobDeps, budget: smsBudget, publicUrl: deps.config.publicUrl });
  const { invitations, invitationTexts, bulkInvite } = inviting;
  const candidateRows = new CandidateRepository(db);
  const sessions = new CandidateSessions(
    (tokenHash, now) => candidateRows.findByTokenHash(tokenHash, now),
    deps.notifier,
    clock,
  );
  const candidates = new CandidateService(db, { ...jobDeps, sessions });
  const candidateImports = new CandidateImportService(db, { ...jobDeps, sessions, invitations: bulkInvite });
  const similarity = new SimilarityService(db, access, audit, jobs, clock);
  const kinds: JobHandlers<JobKind> = {
    bank_import: (ctx) => imports.runImport(ctx),
    invitation_bulk: (ctx) => bulkInvite.runBulk(ctx),
    candidate_import: (ctx) => candidateImports.runImport(ctx),
    code_similarity: (ctx) => similarity.run(ctx),
    rescore: (ctx) => grading.rescoring.runRescore(ctx as unknown as JobContext<RescorePayload>),
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
  const attempts = new AttemptService(db, { catalog, clock, log: deps.log, notifier: deps.notifier, outbox: webhooks });
  const grading = gradingServices(db, { ...jobDeps, attempts, catalog, outbox: webhooks });
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
  const answered = answerServices(db, { attempts, store, clock, lanes: deps.groupCommitLanes, metrics });
  return {
    clock,
    store,
    notifier: deps.notifier,
    metrics,
    access,
    audit,
    ...bank,
    imports,
    questionExports: new QuestionExportService(db, { ...jobDeps, bank: bankTransfer }),
    jobs,
    ...inviting,
    smsDispatch: new SmsDispatcher(db, deps.sms, invitationTexts, { pacer: smsPacer, clock, log: deps.log }),
    smsBudget,
    jobQueue,
    candidates,
    candidateImports,
    similarity,
    analysis,
    examCandidates: new ExamCandidateService(db, access, audit, clock),
    teams: new TeamService(db, access, audit, clock),
    home: new HomeService(db, access, analysis, clock),
    ...grading,
    results,
    resultDimensions: new DimensionReportService(db, { access, catalog }),
    resultsExport,
    tokens,
    webhooks,
    apiTokens: new ApiTokenService(db, audit, clock, deps.limiter),
    resultFeed,
    candidateAuth: new CandidateAuthService({ ...deps, tokens, sessions, pacer: smsPacer, budget: smsBudget }),
    ...staff,
    exams: new ExamService(db, attempts, clock),
    ...scheduleServices(db, { access, audit, attempts, notifier: deps.notifier, clock }),
    catalog,
    seb: new SafeExamBrowserService(db, { access, catalog, publicUrl: deps.config.publicUrl }),
    examEditor: new ExamEditorService(db, {
      access,
      audit,
      bank: publishBank,
      catalog,
      notifier: deps.notifier,
      invitations,
      texts: invitationTexts,
      clock,
    }),
    examPreview: new ExamPreviewService(db, {
      access,
      audit,
      bank: publishBank,
      catalog,
      tokens,
      sessions,
      invitations,
      clock,
    }),
    attempts,
    attemptEntry: new AttemptEntryService(db, { attempts, admission, notifier: deps.notifier, clock }),
    ...answered,
    attemptResults: new AttemptResultService(db, { attempts, evaluation: answered.evaluationSection }),
    risk,
    evidence,
    phone,
    verification,
    faceCheck,
    faceVerification,
    checks: new DeviceCheckService(db, attempts, risk, faceCheck, clock),
    judge: new JudgeService(db, attempts, deps.judgeQueue, deps.limiter, clock, deps.log, metrics),
    profile: new ProfileService(db, store, sessions, clock),
    proctor: new ProctorService(db, attempts, store, deps.notifier, access, audit, clock, deps.log),
    media,
    site: new SiteService(deps.config, clock),
    streams: new StreamAdmission(deps.limiter, deps.config.sseLimits),
    admission,
  };
}
