/** Question imports and exports: formats, a file's preview, its import into a folder, and downloads. */
import * as I from '../schemas/imports.js';
import { IMPORT_LIMITS } from '../schemas/imports.js';
import { JobStartedData } from '../schemas/jobs.js';
import { call } from './define.js';

/** Imports into the bank and exports of folders, selections and exams. */
export const importCalls = {
  bankFormats: call({
    method: 'GET',
    path: '/admin/bank/formats',
    summary: 'The formats questions are imported from and exported to',
    query: undefined,
    body: undefined,
    data: I.ImportFormatListData,
    auth: 'staff',
    permission: 'bank.read',
    // A fixed list: no team's resource.
    teamFree: true,
  }),
  bankImportPreview: call({
    method: 'POST',
    path: '/admin/bank/imports/preview',
    summary:
      'Read a question file (multipart field file): the counts of its questions and problems, and the first questions as they will be stored with their likely duplicates, and the first problems located; nothing is stored',
    query: undefined,
    body: I.ImportPreviewBody,
    data: I.ImportPreviewData,
    auth: 'staff',
    permission: 'bank.manage',
    bodyFormat: 'multipart',
    upload: { field: 'file', maxBytes: IMPORT_LIMITS.fileBytes },
    scope: { kind: 'folder', field: 'folder_id' },
  }),
  bankImport: call({
    method: 'POST',
    path: '/admin/bank/imports',
    summary:
      'Import a question file (multipart field file, sent again after its preview) into a folder: all or nothing, or only the valid questions. The file is checked at once; the import runs as a job (its result: ImportCommitData)',
    query: undefined,
    body: I.ImportCommitBody,
    data: JobStartedData,
    auth: 'staff',
    permission: 'bank.manage',
    bodyFormat: 'multipart',
    upload: { field: 'file', maxBytes: IMPORT_LIMITS.fileBytes },
    scope: { kind: 'folder', field: 'folder_id' },
  }),
  bankImportTemplate: call({
    method: 'GET',
    path: '/admin/bank/imports/template',
    summary: 'Download the Excel template of the one-row-per-question layout, with examples and instructions',
    query: I.ImportTemplateQuery,
    body: undefined,
    data: I.DownloadData,
    auth: 'staff',
    permission: 'bank.read',
    download: true,
    // The same workbook for everyone: no team's resource.
    teamFree: true,
  }),
  bankExportFolder: call({
    method: 'GET',
    path: '/admin/bank/export/folder',
    summary: "Download a folder's questions (and its sub-folders') in a format",
    query: I.ExportFolderQuery,
    body: undefined,
    data: I.DownloadData,
    auth: 'staff',
    permission: 'bank.read',
    download: true,
    scope: { kind: 'folder', field: 'folder_id' },
  }),
  bankExportQuestions: call({
    method: 'GET',
    path: '/admin/bank/export/questions',
    summary: 'Download chosen questions in a format',
    query: I.ExportQuestionsQuery,
    body: undefined,
    data: I.DownloadData,
    auth: 'staff',
    permission: 'bank.read',
    download: true,
    scope: { kind: 'question', field: 'question_ids' },
  }),
  examExport: call({
    method: 'GET',
    path: '/admin/exam/export',
    summary: "Download the questions of an exam's published version in a format",
    query: I.ExportExamQuery,
    body: undefined,
    data: I.DownloadData,
    auth: 'staff',
    // exam.manage, not exam.read: the file carries the answer keys, which proctors never see.
    permission: 'exam.manage',
    download: true,
    scope: { kind: 'exam', field: 'exam_id' },
  }),
} as const;
