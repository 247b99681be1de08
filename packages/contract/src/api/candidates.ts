/** The candidate directory and each invited candidate's status in an exam. */
import * as C from '../schemas/candidates.js';
import { CANDIDATE_LIMITS } from '../schemas/candidates.js';
import { DownloadData } from '../schemas/imports.js';
import { JobStartedData } from '../schemas/jobs.js';
import { call } from './define.js';

/** Candidates staff add, edit, list and import; the candidates of an exam with their status. */
export const candidateCalls = {
  candidateList: call({
    method: 'GET',
    path: '/admin/candidates',
    summary: "The candidates of one's team (an admin's: all), filtered, sorted and paged, with login counts",
    query: C.CandidateListQuery,
    body: undefined,
    data: C.CandidateListData,
    auth: 'staff',
    permission: 'candidate.read',
    // The service filters by team.
    teamFree: true,
    refs: { team_id: 'team' },
  }),
  candidateDetail: call({
    method: 'GET',
    path: '/admin/candidates/detail',
    summary: 'One candidate',
    query: C.CandidateDetailQuery,
    body: undefined,
    data: C.CandidateView,
    auth: 'staff',
    permission: 'candidate.read',
    scope: { kind: 'candidate', field: 'candidate_id' },
  }),
  candidateCreate: call({
    method: 'POST',
    path: '/admin/candidates',
    summary:
      "Add a candidate to one's team (an admin names the team); a phone already in the directory joins the team with these fields",
    query: undefined,
    body: C.CandidateCreateBody,
    data: C.CandidateView,
    auth: 'staff',
    permission: 'candidate.manage',
    // The team is the caller's own (or, for an admin, checked by the service).
    teamFree: true,
    refs: { team_id: 'team' },
  }),
  candidateUpdate: call({
    method: 'POST',
    path: '/admin/candidates/update',
    summary: 'Edit a candidate: fields, phone (unless another candidate has it) and custom fields',
    query: undefined,
    body: C.CandidateUpdateBody,
    data: C.CandidateView,
    auth: 'staff',
    permission: 'candidate.manage',
    scope: { kind: 'candidate', field: 'candidate_id' },
  }),
  candidateImportPreview: call({
    method: 'POST',
    path: '/admin/candidates/import/preview',
    summary:
      'Read a candidate file (xlsx or CSV, multipart field file): the counts of what an import would store, rows with the same phone merged, and the first candidates and problems (by row and column) as they will be stored; nothing is stored',
    query: undefined,
    body: C.CandidateImportPreviewBody,
    data: C.CandidateImportPreviewData,
    auth: 'staff',
    permission: 'candidate.manage',
    bodyFormat: 'multipart',
    upload: { field: 'file', maxBytes: CANDIDATE_LIMITS.fileBytes },
    teamFree: true,
    refs: { team_id: 'team' },
  }),
  candidateImport: call({
    method: 'POST',
    path: '/admin/candidates/import',
    summary:
      'Import a candidate file (sent again after its preview) into the team: creates and updates by phone, as a job (its result: CandidateImportResult)',
    query: undefined,
    body: C.CandidateImportBody,
    data: JobStartedData,
    auth: 'staff',
    permission: 'candidate.manage',
    bodyFormat: 'multipart',
    upload: { field: 'file', maxBytes: CANDIDATE_LIMITS.fileBytes },
    teamFree: true,
    refs: { team_id: 'team', invite_exam_id: 'exam' },
  }),
  candidateImportTemplate: call({
    method: 'GET',
    path: '/admin/candidates/import/template',
    summary: 'Download the Excel template of a candidate file, with the known headers and an example row',
    query: C.CandidateTemplateQuery,
    body: undefined,
    data: DownloadData,
    auth: 'staff',
    permission: 'candidate.read',
    download: true,
    // The same workbook for everyone.
    teamFree: true,
  }),
  examCandidates: call({
    method: 'GET',
    path: '/admin/exam/candidates',
    summary:
      "An exam's invited candidates with their status (invited, logged in, checks passed, in progress, submitted, ended by a proctor, absent), counts per status, filtered and paged",
    query: C.ExamCandidatesQuery,
    body: undefined,
    data: C.ExamCandidatesData,
    auth: 'staff',
    permission: 'exam.read',
    scope: { kind: 'exam', field: 'exam_id' },
    identity: 'refused',
  }),
  examCandidatesExport: call({
    method: 'GET',
    path: '/admin/exam/candidates/export',
    summary: "Download an exam's invited candidates with their status (filtered as the list) as CSV or xlsx",
    query: C.ExamCandidatesExportQuery,
    body: undefined,
    data: DownloadData,
    auth: 'staff',
    permission: 'exam.read',
    download: true,
    scope: { kind: 'exam', field: 'exam_id' },
    identity: 'refused',
  }),
} as const;
