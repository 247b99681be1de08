/** The candidate directory's server data: the list, add and edit, the import (preview, job) and the template. */
import {
  api,
  type BulkInviteResult,
  type CandidateCreateBody,
  type CandidateImportPreviewData,
  type CandidateImportResult,
  type CandidateListQuery,
  type CandidateUpdateBody,
  type JobView,
} from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fetchFile, request, saveFile, upload } from '../../../api/client.js';
import { followJob } from '../../../api/jobs.js';
import { queryKey } from '../../../api/queryKeys.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useServerList } from '../shared/serverList.js';

/** Every page of the directory: what a change refetches. */
const CANDIDATES_KEY = queryKey(api.candidateList);

/** One page of the directory (sorted, filtered and paged on the server). */
export function useCandidates(query: CandidateListQuery) {
  const me = useStaffMe();
  return useServerList(api.candidateList, query, { enabled: can(me.data, 'candidate.read') });
}

/** Adds or edits a candidate; the directory is refetched. */
export function useSaveCandidate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number | null; body: CandidateCreateBody }) =>
      input.id === null
        ? request(api.candidateCreate, { body: input.body })
        : request(api.candidateUpdate, { body: { ...input.body, candidate_id: input.id } as CandidateUpdateBody }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CANDIDATES_KEY }),
  });
}

/** Reads a file on the server: the candidates it holds and every problem; nothing is stored. */
export function useImportPreview() {
  return useMutation({
    mutationFn: (file: File): Promise<CandidateImportPreviewData> => upload(api.candidateImportPreview, { file }),
  });
}

/** What an import followed by an invitation made: the candidates, then their invitations. */
export interface ImportOutcome {
  imported: CandidateImportResult;
  invited: BulkInviteResult | null;
}

/**
 * Imports a previewed file as a job, reporting its progress; with an exam to invite to, follows the invitation
 * job the import starts too (its progress reported by `onInviteProgress`). Answers what both made.
 */
export function useImportCommit(onProgress: (job: JobView) => void, onInviteProgress?: (job: JobView) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: {
      file: File;
      sha256: string;
      onlyValid: boolean;
      invite: { examId: number; sendSms: boolean } | null;
    }): Promise<ImportOutcome> => {
      const { job_id } = await upload(api.candidateImport, {
        file: input.file,
        sha256: input.sha256,
        only_valid: input.onlyValid ? '1' : '0',
        ...(input.invite
          ? { invite_exam_id: String(input.invite.examId), send_sms: input.invite.sendSms ? '1' : '0' }
          : {}),
      });
      const imported = (await followJob(job_id, onProgress)) as CandidateImportResult;
      const next = imported.invitation_job_id;
      const invited = next ? ((await followJob(next, onInviteProgress ?? (() => {}))) as BulkInviteResult) : null;
      return { imported, invited };
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: CANDIDATES_KEY }),
  });
}

/** Downloads the Excel template in a language. */
export function useCandidateTemplate() {
  return useMutation({
    mutationFn: async (lang: 'zh' | 'en') => saveFile(await fetchFile(api.candidateImportTemplate, { lang })),
  });
}
