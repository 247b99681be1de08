/** The API catalogue: every call's method, path, schemas and who may make it. Server and web both read it. */
import type { z } from 'zod';
import { analysisCalls } from './analysis.js';
import { auditCalls } from './audit.js';
import { bankCalls } from './bank.js';
import { candidateCalls } from './candidates.js';
import { cepingCalls } from './ceping.js';
import type { CallDef } from './define.js';
import { examCalls } from './exam.js';
import { examEditorCalls } from './examEditor.js';
import { importCalls } from './imports.js';
import { integrationCalls } from './integrations.js';
import { invitationCalls } from './invitations.js';
import { jobCalls } from './jobs.js';
import { monitorCalls } from './monitor.js';
import { proctorCalls } from './proctor.js';
import { gradingCalls } from './grading.js';
import { resultCalls } from './results.js';
import { reviewCalls } from './review.js';
import { scheduleCalls } from './schedule.js';
import { similarityCalls } from './similarity.js';
import { ssoCalls } from './sso.js';
import { staffCalls } from './staff.js';
import { subjectCalls } from './subject.js';
import { teamCalls } from './teams.js';
import { userCalls } from './user.js';

export { call, candidateExamRef, type CallAuth, type CallDef, type CandidateExamRef, type IdRef } from './define.js';
// Each area on its own too: a page that imports only its areas leaves the other areas' schemas out of its bundle.
export {
  analysisCalls,
  auditCalls,
  bankCalls,
  cepingCalls,
  examCalls,
  examEditorCalls,
  gradingCalls,
  importCalls,
  integrationCalls,
  monitorCalls,
  proctorCalls,
  resultCalls,
  reviewCalls,
  similarityCalls,
  ssoCalls,
  staffCalls,
  subjectCalls,
  teamCalls,
  userCalls,
};

/** Every call, keyed by a stable name: one file per area, composed here. */
export const api = {
  ...userCalls,
  ...examCalls,
  ...reviewCalls,
  ...monitorCalls,
  ...subjectCalls,
  ...cepingCalls,
  ...staffCalls,
  ...ssoCalls,
  ...proctorCalls,
  ...teamCalls,
  ...auditCalls,
  ...examEditorCalls,
  ...bankCalls,
  ...importCalls,
  ...invitationCalls,
  ...jobCalls,
  ...scheduleCalls,
  ...gradingCalls,
  ...resultCalls,
  ...candidateCalls,
  ...similarityCalls,
  ...integrationCalls,
  ...analysisCalls,
} as const;

/** A call's name. */
export type CallName = keyof typeof api;
/** What a call's query accepts. */
export type CallQuery<C extends CallDef> = C['query'] extends z.ZodType ? z.input<C['query']> : undefined;
/** What a call's body accepts. */
export type CallBody<C extends CallDef> = C['body'] extends z.ZodType ? z.input<C['body']> : undefined;
/** A call's query after parsing (defaults applied), as a route hands it to a service. */
export type ParsedQuery<C extends CallDef> = C['query'] extends z.ZodType ? z.output<C['query']> : undefined;
/** A call's body after parsing (defaults applied), as a route hands it to a service. */
export type ParsedBody<C extends CallDef> = C['body'] extends z.ZodType ? z.output<C['body']> : undefined;
/** What a call answers in `data`. */
export type CallData<C extends CallDef> = z.infer<C['data']>;
