/** Results: the ranking, one attempt's report, the exam's figures for charts, and exports of them. */
import { JobStartedData } from '../schemas/jobs.js';
import { DownloadData } from '../schemas/imports.js';
import * as S from '../schemas/results.js';
import { call } from './define.js';

/** Results: the console's calls. */
export const resultCalls = {
  resultsRanking: call({
    method: 'GET',
    path: '/admin/results/ranking',
    summary: "An exam's finished attempts ranked by total or a section's score, filtered, sorted and paged",
    query: S.RankingQuery,
    body: undefined,
    data: S.RankingData,
    auth: 'staff',
    permission: 'grade.read',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  resultsReport: call({
    method: 'GET',
    path: '/admin/results/report',
    summary: "One attempt's report: answers, points and time per question, judge results, dimensions, integrity",
    query: S.ResultReportQuery,
    body: undefined,
    data: S.ResultReportData,
    auth: 'staff',
    permission: 'grade.read',
    scope: { kind: 'attempt', field: 'attempt_id' },
  }),
  resultsStats: call({
    method: 'GET',
    path: '/admin/results/stats',
    summary: "An exam's figures for charts: score distribution, pass counts, section means, time per question",
    query: S.ResultStatsQuery,
    body: undefined,
    data: S.ResultStatsData,
    auth: 'staff',
    permission: 'grade.read',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  resultsDimensions: call({
    method: 'GET',
    path: '/admin/results/dimensions',
    summary: "The evaluation section's dimensions over an exam's finished attempts",
    query: S.ResultStatsQuery.pick({ exam_id: true }),
    body: undefined,
    data: S.DimensionReportData,
    auth: 'staff',
    permission: 'grade.read',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  resultsExport: call({
    method: 'POST',
    path: '/admin/results/export',
    summary: 'Export the ranking (as filtered) with points per question to xlsx or CSV, as a job',
    query: undefined,
    body: S.ResultExportBody,
    data: JobStartedData,
    auth: 'staff',
    permission: 'grade.read',
    scope: { kind: 'exam', field: 'exam_id' },
  }),
  resultsExportFile: call({
    method: 'GET',
    path: '/admin/results/export-file',
    summary: 'Download the file a finished results export job wrote',
    query: S.ResultExportFileQuery,
    body: undefined,
    data: DownloadData,
    auth: 'staff',
    permission: 'grade.read',
    download: true,
    scope: { kind: 'job', field: 'job_id' },
  }),
} as const;
