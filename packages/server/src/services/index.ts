import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { RateLimiter } from '../ratelimit/limiter.js';
import type { SmsSender } from '../sms/sender.js';
import { CandidateAuthService } from './candidateAuth.js';
import { ExamService } from './exams.js';
import { SiteService } from './site.js';
import { StaffService } from './staff.js';
import { TokenService } from './tokens.js';

/** Everything services need from outside. */
export interface ServiceDeps {
  config: Config;
  db: Db;
  limiter: RateLimiter;
  sms: SmsSender;
  clock: () => number;
  log: FastifyBaseLogger;
}

/** The services, built once per app. */
export interface Services {
  tokens: TokenService;
  candidateAuth: CandidateAuthService;
  staff: StaffService;
  exams: ExamService;
  site: SiteService;
}

/** Wires the services. */
export function createServices(deps: ServiceDeps): Services {
  const tokens = new TokenService(deps.db, deps.clock);
  return {
    tokens,
    candidateAuth: new CandidateAuthService({ ...deps, tokens }),
    staff: new StaffService({ ...deps, tokens }),
    exams: new ExamService(deps.db, deps.clock),
    site: new SiteService(deps.config, deps.clock),
  };
}
