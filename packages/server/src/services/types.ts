/** What the services need from outside (ServiceDeps) and the set they make (Services); wired in index.ts. */
import type { JobKind } from '@examhall/contract';
import type { JudgeQueue } from '@examhall/judge';
import type { Instruments } from '../ops/metrics.js';
import type { ServiceLog } from '../log.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { JobQueue, JobsSetup } from '../jobs/index.js';
import type { ProctorNotifier } from '../proctoring/notifier.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import type { StreamAdmission } from '../ratelimit/streams.js';
import type { AdmissionService } from './admission.js';
import type { SmsSender } from '../sms/sender.js';
import type { ObjectStore } from '../storage/objectStore.js';
import type { AccessService } from './access.js';
import type { AnalysisService } from './analysis.js';
import type { AnswerService } from './answers.js';
import type { EvaluationSectionService } from './evaluationSection.js';
import type { ExamQuestionService } from './examQuestions.js';
import type { AttemptService } from './attempts.js';
import type { AttemptEntryService } from './attemptEntry.js';
import type { AttemptResultService } from './attemptResults.js';
import type { AuditService } from './audit.js';
import type { BankBulkService } from './bank/bulk.js';
import type { BankFolderService } from './bank/folders.js';
import type { BankPoolService } from './bank/pools.js';
import type { BankQuestionService } from './bank/questions.js';
import type { BankReferenceCheckService } from './bank/referenceCheck.js';
import type { BankTransferService } from './bank/transfer.js';
import type { BankUploadService } from './bank/uploads.js';
import type { GradingService } from './grading.js';
import type { GradingSetupService } from './gradingSetup.js';
import type { RescoreService } from './rescoring.js';
import type { ImportService } from './imports.js';
import type { QuestionExportService } from './questionExports.js';
import type { JobService } from './jobs.js';
import type { InvitationService } from './invitations.js';
import type { BulkInviteService } from './bulkInvite.js';
import type { InvitationChangeService } from './invitationChanges.js';
import type { InvitationTexts } from './invitationTexts.js';
import type { ExamSmsService } from './examSms.js';
import type { SmsDispatcher } from './smsDispatch.js';
import type { SmsBudget } from './smsBudget.js';
import type { CandidateService } from './candidates.js';
import type { CandidateImportService } from './candidateImport.js';
import type { ExamCandidateService } from './examCandidates.js';
import type { CandidateAuthService } from './candidateAuth.js';
import type { ExamCatalog } from './catalog.js';
import type { DeviceCheckService } from './deviceChecks.js';
import type { ExamEditorService } from './examEditor.js';
import type { SafeExamBrowserService } from './safeExamBrowser.js';
import type { ExamPreviewService } from './examPreview.js';
import type { EvidenceIntakeService } from './evidence/intake.js';
import type { PhonePageService } from './evidence/phone.js';
import type { EvidenceVerificationService } from './evidence/verification.js';
import type { FaceCheckService } from './faceCheck.js';
import type { FaceVerificationService } from './faceVerification.js';
import type { HomeService } from './home.js';
import type { ExamService } from './exams.js';
import type { JudgeService } from './judging.js';
import type { MediaLinks } from './media.js';
import type { ProctorService } from './proctor.js';
import type { ProfileService } from './profile.js';
import type { DimensionReportService } from './resultDimensions.js';
import type { ResultsService } from './results.js';
import type { ResultsExportService } from './resultsExport.js';
import type { RiskService } from './risk.js';
import type { SlotService } from './scheduleSlots.js';
import type { AccommodationService } from './accommodations.js';
import type { ReopenService } from './reopen.js';
import type { SlotChoiceService } from './slotChoice.js';
import type { SimilarityService } from './similarity.js';
import type { SiteService } from './site.js';
import type { StaffService } from './staff.js';
import type { StaffLoginService } from './staffLogin.js';
import type { StaffSessionService } from './staffSessions.js';
import type { OidcService } from './oidc.js';
import type { SamlService } from './saml.js';
import type { SsoAdminService } from './ssoAdmin.js';
import type { SsoSignInService } from './ssoSignIn.js';
import type { StaffTotpService } from './staffTotp.js';
import type { TeamService } from './teams.js';
import type { TokenService } from './tokens.js';
import type { ApiTokenService } from './apiTokens.js';
import type { ResultFeedService } from './resultFeed.js';
import type { WebhookService } from './webhooks.js';

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
  /** The question bank's folders: a tree per team with question counts; create, rename, move, delete. */
  bankFolders: BankFolderService;
  /** Bank questions: list and search, one in full, create, update, likely duplicates, the tags in use. */
  bankQuestions: BankQuestionService;
  /** Changes to many bank questions at once: move, tag, untag, delete. */
  bankBulk: BankBulkService;
  /** Uploads for bank questions (pictures, audio, zips of hidden cases) and the bank's stored pictures. */
  bankUploads: BankUploadService;
  /** The judge's check of programming questions' reference solutions (`verify`; `verifyReference` for publishing). */
  bankReferenceCheck: BankReferenceCheckService;
  /** Bank questions for exams: `getForPublish` and a draw rule's pool (`poolFor`). */
  bankPools: BankPoolService;
  /** The bank's side of imports and exports: imported questions checked, staged and published; questions to export. */
  bankTransfer: BankTransferService;
  /** Question imports into the bank: preview, commit (a `bank_import` job), the command line's import. */
  imports: ImportService;
  /** Question files handed out: the formats, the import template, exports of folders, selections and exams. */
  questionExports: QuestionExportService;
  /** Jobs staff started (imports, ...): list, detail, cancel, and `start` for the services that queue them. */
  jobs: JobService;
  /** Where every invitation is made: a few phones, a batch, a staff member's preview. */
  invitations: InvitationService;
  /** Invitations' texts as they are queued, within their budgets, and each exam's templates. */
  invitationTexts: InvitationTexts;
  /** Bulk invitations by SMS: the call and its job (`invitation_bulk`). */
  bulkInvite: BulkInviteService;
  /** Invitations' links sent again, and revocations. */
  invitationChanges: InvitationChangeService;
  /** Each exam's texts: templates, reminder times, the texts stored and their delivery. */
  examSms: ExamSmsService;
  /** Sends queued texts at the configured rate and queues reminders (periodic tasks). */
  smsDispatch: SmsDispatcher;
  /** How many texts may go out, per invitation, phone, exam and team. */
  smsBudget: SmsBudget;
  /** The job queue itself (started and closed with the app). */
  jobQueue: JobQueue<JobKind>;
  /** The candidate directory: add, edit, list. */
  candidates: CandidateService;
  /** Imports of candidate lists: preview, commit (a job: `candidate_import`), the template. */
  candidateImports: CandidateImportService;
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
  /** Marking: the exams to grade, each grader's queue, marks, reconciliation, progress. */
  grading: GradingService;
  /** Grading's set-up: an exam's settings (blind, double marking, margin) and its graders per exam or section. */
  gradingSetup: GradingSetupService;
  /** Key corrections and the `rescore` job that scores the finished attempts again. */
  rescoring: RescoreService;
  /** Results: rankings, one attempt's report, the figures for charts. */
  results: ResultsService;
  /** The evaluation's dimensions over an exam's finished attempts. */
  resultDimensions: DimensionReportService;
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
  /** Staff accounts: the actor behind a token or an id, one's own account, management; `passwords`, shared. */
  staff: StaffService;
  /** Staff sign-in: login with the second factor, logout, the sweep of ended login tries. */
  staffLogin: StaffLoginService;
  staffSessions: StaffSessionService;
  /** Single sign-on as an admin sets it: group mappings and the policy (required, break-glass admins). */
  ssoAdmin: SsoAdminService;
  /** The rule that decides which account a provider's verified claims sign in as, and the sign-in itself. */
  ssoSignIn: SsoSignInService;
  /** OpenID Connect sign-in: start, and the provider's answer. */
  oidc: OidcService;
  /** SAML 2.0 sign-in: the service provider's metadata, start, and the provider's response. */
  saml: SamlService;
  /** The staff second factor: enrol, confirm, turn off, reset another's, seal secrets stored plain. */
  staffTotp: StaffTotpService;
  exams: ExamService;
  /** The exam editor: drafts, published versions, live changes, copy, archive, preview, invitations. */
  examEditor: ExamEditorService;
  /** Staff taking an exam's draft as a candidate would, and the keys of what they were shown. */
  examPreview: ExamPreviewService;
  /** An exam's time slots and whether candidates choose theirs. */
  slots: SlotService;
  /** Each invitation's slot, extra time and personal window, as staff set them. */
  accommodations: AccommodationService;
  /** Reopening a finished attempt. */
  reopen: ReopenService;
  /** The candidate's slot: the exam's slots with seats left, and choosing one. */
  slotChoice: SlotChoiceService;
  /** Exams as candidates read them: versions cached by id (immutable), the exams row for a few seconds. */
  catalog: ExamCatalog;
  /** Safe Exam Browser: an exam's settings file and its key, and the proof every candidate call of such an exam needs. */
  seb: SafeExamBrowserService;
  attempts: AttemptService;
  /** The candidate entering an exam: the attempt created or resumed, the clock started. */
  attemptEntry: AttemptEntryService;
  /** The candidate handing in their attempt, and their result. */
  attemptResults: AttemptResultService;
  /** Answer saves (committed before the receipt) and the files a Q&A answer attaches. */
  answers: AnswerService;
  /** A running attempt's questions as the candidate sees them, and listening audio plays. */
  examQuestions: ExamQuestionService;
  /** The evaluation section: answer card, items, answers, the score per dimension. */
  evaluationSection: EvaluationSectionService;
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
  /** The paced admission of candidates entering in a start wave. */
  admission: AdmissionService;
}
