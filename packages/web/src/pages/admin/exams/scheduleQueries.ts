/** The schedule tab's server data: an exam's slots and its invitations, and the changes that refetch them. */
import { api, type AccommodationsBody, type AssignSlotBody, type InvitationListQuery } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useServerList } from '../shared/serverList.js';

/** An exam's slots with seats taken, and its slot mode. */
export function useSlots(examId: number) {
  const query = { exam_id: examId };
  return useQuery({
    queryKey: queryKey(api.scheduleSlots, query),
    queryFn: ({ signal }) => request(api.scheduleSlots, { query, signal }),
  });
}

/** One page of an exam's invitations. */
export function useInvitations(query: InvitationListQuery) {
  return useServerList(api.scheduleInvitations, query);
}

/** Refetches slots and invitations (seats and windows change together). */
export function useRefreshSchedule() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKey(api.scheduleSlots) });
    void queryClient.invalidateQueries({ queryKey: queryKey(api.scheduleInvitations) });
  };
}

/** Assigns invitations to a slot (or none). */
export function useAssignSlot() {
  const refresh = useRefreshSchedule();
  return useMutation({
    mutationFn: (body: AssignSlotBody) => request(api.scheduleAssignSlot, { body }),
    onSuccess: refresh,
  });
}

/** Sets invitations' extra time and personal window. */
export function useAccommodations() {
  const refresh = useRefreshSchedule();
  return useMutation({
    mutationFn: (body: AccommodationsBody) => request(api.scheduleAccommodations, { body }),
    onSuccess: refresh,
  });
}

/** Reopens a finished attempt. */
export function useReopen() {
  const refresh = useRefreshSchedule();
  return useMutation({
    mutationFn: (body: { attempt_id: number; reason: string; minutes?: number }) =>
      request(api.scheduleReopen, { body }),
    onSuccess: refresh,
  });
}
