/** Imports and exports: the formats, a file's preview, its import, and downloads. */
import { api, type ImportCommitData, type ImportPreviewData, type JobView } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fetchFile, request, saveFile, upload } from '../../../api/client.js';
import { followJob } from '../../../api/jobs.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { BANK_KEY, invalidateBank } from './queries.js';

/** Query key of the format list. */
export const FORMATS_KEY = [...BANK_KEY, 'formats'] as const;

/** The formats the server imports and exports (the same list for everyone, and it never changes while open). */
export function useFormats() {
  const me = useStaffMe();
  return useQuery({
    queryKey: FORMATS_KEY,
    queryFn: ({ signal }) => request(api.bankFormats, { signal }),
    enabled: can(me.data, 'bank.read'),
    staleTime: Infinity,
  });
}

/** What an import sends: the file, the target folder, and the format when the author chose one. */
export interface ImportFile {
  file: File;
  folderId: number;
  format: string | null;
}

/** The multipart fields of an import call. */
function fieldsOf(input: ImportFile): Record<string, string | Blob> {
  return {
    folder_id: String(input.folderId),
    ...(input.format ? { format: input.format } : {}),
    file: input.file,
  };
}

/** Reads a file on the server: every question as it will be stored and every problem; nothing is stored. */
export function usePreview() {
  return useMutation({
    mutationFn: (input: ImportFile): Promise<ImportPreviewData> => upload(api.bankImportPreview, fieldsOf(input)),
  });
}

/**
 * Imports a previewed file (sent again with its SHA-256, so what is stored is what was seen). The server
 * answers a job at once; the import's progress reaches `onProgress` until the job ends with what it stored.
 */
export function useImport(onProgress?: (job: JobView) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      input: ImportFile & { tags: string[]; onlyValid: boolean; sha256: string },
    ): Promise<ImportCommitData> => {
      const { job_id } = await upload(api.bankImport, {
        ...fieldsOf(input),
        tags: input.tags.join('\n'),
        only_valid: input.onlyValid ? '1' : '0',
        sha256: input.sha256,
      });
      // The import runs as a job on the server: its result is what was stored.
      return (await followJob(job_id, onProgress ?? (() => undefined))) as ImportCommitData;
    },
    onSuccess: () => invalidateBank(queryClient),
  });
}

/** What to export: a folder, chosen questions, or an exam's published version. */
export type ExportSource = { folderId: number } | { questionIds: number[] } | { examId: number };

/** Downloads questions in a format and hands the file to the browser. */
export function useExport() {
  return useMutation({
    mutationFn: async ({ source, format }: { source: ExportSource; format: string }) => {
      const file =
        'folderId' in source
          ? await fetchFile(api.bankExportFolder, { folder_id: source.folderId, format })
          : 'questionIds' in source
            ? await fetchFile(api.bankExportQuestions, { question_ids: source.questionIds, format })
            : await fetchFile(api.examExport, { exam_id: source.examId, format });
      saveFile(file);
      return file.fileName;
    },
  });
}

/** Downloads the Excel template in the console's language and hands it to the browser. */
export function useTemplate() {
  return useMutation({
    mutationFn: async (lang: 'zh' | 'en') => {
      const file = await fetchFile(api.bankImportTemplate, { lang });
      saveFile(file);
      return file.fileName;
    },
  });
}
