/** The invitations tab's server data: bulk invitations as a job, resends, revocations, the exam's texts. */
import {
  api,
  type BulkInviteBody,
  type BulkInviteResult,
  type ExamSmsBody,
  type JobView,
  type ResendBody,
  type RevokeBody,
  type SmsListQuery,
} from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { followJob } from '../../../api/jobs.js';
import { useServerList } from '../shared/serverList.js';

/** Refetches what an invitation or a text changes: the invitation list and the texts. */
export function useRefreshInvitations() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKey(api.scheduleInvitations) });
    void queryClient.invalidateQueries({ queryKey: queryKey(api.smsList) });
  };
}

/**
 * Starts a bulk invitation and follows its job: each state seen reaches `onProgress`; the mutation answers the
 * job's result once it is done.
 */
export function useBulkInvite(onProgress: (job: JobView) => void) {
  const refresh = useRefreshInvitations();
  return useMutation({
    mutationFn: async (body: BulkInviteBody): Promise<BulkInviteResult> => {
      const { job_id } = await request(api.invitationsBulk, { body });
      return (await followJob(job_id, onProgress)) as BulkInviteResult;
    },
    onSettled: refresh,
  });
}

/** Texts invitations' links again. */
export function useResend() {
  const refresh = useRefreshInvitations();
  return useMutation({
    mutationFn: (body: ResendBody) => request(api.invitationsResend, { body }),
    onSuccess: refresh,
  });
}

/** Revokes invitations not yet started. */
export function useRevoke() {
  const refresh = useRefreshInvitations();
  return useMutation({
    mutationFn: (body: RevokeBody) => request(api.invitationsRevoke, { body }),
    onSuccess: refresh,
  });
}

/** The exam's templates and reminder times. */
export function useSmsSettings(examId: number) {
  const query = { exam_id: examId };
  return useQuery({
    queryKey: queryKey(api.examSms, query),
    queryFn: ({ signal }) => request(api.examSms, { query, signal }),
  });
}

/** Saves the exam's templates and reminder times. */
export function useSaveSmsSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ExamSmsBody) => request(api.examSmsSave, { body }),
    onSuccess: (data, body) => queryClient.setQueryData(queryKey(api.examSms, { exam_id: body.exam_id }), data),
  });
}

/** One page of the exam's texts with the counts per state; refetched every few seconds while any is pending. */
export function useSmsList(query: SmsListQuery) {
  return useServerList(api.smsList, query, {
    refetchInterval: (data) => {
      const counts = data?.counts;
      return counts && (counts.queued ?? 0) + (counts.sending ?? 0) > 0 ? 3000 : false;
    },
  });
}
