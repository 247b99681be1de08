/** The staff session: the logged-in account and its permissions. */
import { type Permission, type StaffLoginBody, type StaffView, staffCalls } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { request } from '../api/client.js';

/** Query key of the logged-in staff account. */
export const STAFF_ME_KEY = ['staff-me'] as const;

/** The logged-in staff account; a 401 sends the browser to the staff login. */
export function useStaffMe() {
  return useQuery({
    queryKey: STAFF_ME_KEY,
    queryFn: ({ signal }) => request(staffCalls.staffMe, { signal }),
    staleTime: 60_000,
  });
}

/** True when the account holds the permission. */
export function can(staff: StaffView | undefined, permission: Permission): boolean {
  return staff?.permissions.includes(permission) ?? false;
}

/** Staff password login; the server keeps the token in an httpOnly cookie. */
export function useStaffLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffLoginBody) => request(staffCalls.staffLogin, { body }),
    onSuccess: (data) => queryClient.setQueryData(STAFF_ME_KEY, data.staff),
  });
}

/**
 * Revokes the staff token, then leaves for the login page before forgetting the cache: cleared
 * while the console is still on screen, its queries would refetch and meet a 401.
 */
export function useStaffLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      try {
        await request(staffCalls.staffLogout);
      } finally {
        await navigate('/admin/login', { replace: true });
        queryClient.clear();
      }
    },
  });
}
