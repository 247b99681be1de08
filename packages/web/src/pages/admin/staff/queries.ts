/** The staff area's server data: accounts and teams, and the mutations that change them. */
import { api, type UpdateStaffBody } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../api/client.js';
import { can, STAFF_ME_KEY, useStaffMe } from '../../../session/staff.js';

/** Query key of the staff list. */
export const STAFF_LIST_KEY = ['admin', 'staff'] as const;
/** Query key of the team list. */
export const TEAMS_KEY = ['admin', 'teams'] as const;

/** Every staff account (the console's lists are small: filtered in the page). */
export function useStaffList() {
  const me = useStaffMe();
  return useQuery({
    queryKey: STAFF_LIST_KEY,
    queryFn: ({ signal }) => request(api.staffList, { signal }),
    enabled: can(me.data, 'staff.read'),
  });
}

/** Every team with its member and exam counts. */
export function useTeams() {
  const me = useStaffMe();
  return useQuery({
    queryKey: TEAMS_KEY,
    queryFn: ({ signal }) => request(api.teamList, { signal }),
    enabled: can(me.data, 'staff.read'),
    staleTime: 30_000,
  });
}

/** Turns another account's second factor off (its authenticator lost); the list is refetched. */
export function useResetStaffTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => request(api.staffResetTotp, { body: { id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: STAFF_LIST_KEY }),
  });
}

/** Changes an account; the list, the teams' counts and (for oneself) the session are refetched. */
export function useUpdateStaff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateStaffBody) => request(api.staffUpdate, { body }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: STAFF_LIST_KEY });
      void queryClient.invalidateQueries({ queryKey: TEAMS_KEY });
      void queryClient.invalidateQueries({ queryKey: STAFF_ME_KEY });
    },
  });
}
