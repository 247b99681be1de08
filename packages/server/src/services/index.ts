import type { JudgeQueue } from '@examhall/judge';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import type { SmsSender } from '../sms/sender.js';
import type { ObjectStore } from '../storage/objectStore.js';
import { AnswerService } from './answers.js';
import { AttemptService } from './attempts.js';
import { CandidateAuthService } from './candidateAuth.js';
import { ExamCatalog } from './catalog.js';
import { ExamService } from './exams.js';
import { JudgeService } from './judging.js';
import { MediaLinks } from './media.js';
import { ProfileService } from './profile.js';
import { RiskService } from './risk.js';
import { SiteService } from './site.js';
import { StaffService } from './staff.js';
import { TokenService } from './tokens.js';

/** Everything services need from outside. */
export interface ServiceDeps {
  config: Config;
  db: Db;
  limiter: RateLimiter;
  sms: SmsSender;
  store: ObjectStore;
  clock: () => number;
  log: FastifyBaseLogger;
  /** Whether concurrent answer saves share a transaction (the dialect decides). */
  groupCommit: boolean;
  /** Where code is judged. */
  judgeQueue: JudgeQueue;
}

/** The services, built once per app. */
export interface Services {
  clock: () => number;
  store: ObjectStore;
  tokens: TokenService;
  candidateAuth: CandidateAuthService;
  staff: StaffService;
  exams: ExamService;
  attempts: AttemptService;
  answers: AnswerService;
  risk: RiskService;
  judge: JudgeService;
  profile: ProfileService;
  media: MediaLinks;
  site: SiteService;
}

/** Wires the services. */
export function createServices(deps: ServiceDeps): Services {
  const { db, clock, store } = deps;
  const tokens = new TokenService(db, clock);
  const catalog = new ExamCatalog(db, clock);
  const attempts = new AttemptService(db, catalog, clock, deps.log);
  return {
    clock,
    store,
    tokens,
    candidateAuth: new CandidateAuthService({ ...deps, tokens }),
    staff: new StaffService({ ...deps, tokens }),
    exams: new ExamService(db, attempts, clock),
    attempts,
    answers: new AnswerService(db, attempts, store, clock, deps.groupCommit),
    risk: new RiskService(db, attempts, clock),
    judge: new JudgeService(db, attempts, deps.judgeQueue, deps.limiter, clock, deps.log),
    profile: new ProfileService(db, store, clock),
    media: new MediaLinks(db, clock),
    site: new SiteService(deps.config, clock),
  };
}
