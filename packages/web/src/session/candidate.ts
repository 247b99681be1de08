/** The candidate's session: who is logged in, logging in and out. */
import { type GetInfoData, type LoginBody, type LoginData, userCalls } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isApiError, request } from '../api/client.js';
import { clearAuth, currentAuth, storeAuth } from '../api/cookies.js';
import { rememberCandidate } from './owner.js';
import { endSession } from './sessionEnd.js';
import { ensureCookieDomain, getCookieDomain } from './siteConfig.js';

/** Query key of the logged-in candidate. */
export const USER_INFO_KEY = ['user-info'] as const;

/**
 * The logged-in candidate. A refused check removes the cookie, since the token no longer works; a
 * timeout or a lost connection says nothing about the token, so it is kept then.
 */
export async function fetchUserInfo({ signal }: { signal: AbortSignal }): Promise<GetInfoData> {
  try {
    return await request(userCalls.getInfo, { signal });
  } catch (e) {
    if (isApiError(e) && e.status !== 0) clearAuth(await ensureCookieDomain());
    throw e;
  }
}

/** The logged-in candidate, fetched only when a token exists. */
export function useUserInfo() {
  return useQuery({
    queryKey: USER_INFO_KEY,
    queryFn: fetchUserInfo,
    enabled: currentAuth() !== null,
    staleTime: 60_000,
  });
}

/**
 * Logs in. The server sets the cookie; when its domain does not cover this host (or only the
 * body carried the token) the client stores it, so the token always rides on later calls.
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody) => request(userCalls.login, { body }),
    onSuccess: (data: LoginData) => {
      const domain = getCookieDomain();
      if (currentAuth() !== data.auth) storeAuth(data.auth, domain);
      if (currentAuth() !== data.auth && domain) storeAuth(data.auth, '');
      rememberCandidate(data.user_id);
      queryClient.removeQueries({ queryKey: USER_INFO_KEY });
    },
  });
}

/**
 * Logs out: revokes the token, forgets it whatever the server said, then loads the login page afresh, so
 * nothing of the session stays in memory and no page of it reacts to the missing token on the way out (a
 * query refetched in between would send the candidate to the login page with a way back).
 */
export function useLogout() {
  return useMutation({
    mutationFn: async () => {
      try {
        await request(userCalls.logout);
      } finally {
        clearAuth(getCookieDomain());
        endSession();
        window.location.replace('/login');
      }
    },
  });
}

/** Where the last phone that logged in on this browser is kept (not a secret: it fills the form again). */
const LAST_PHONE_KEY = 'last-login-phone';

/** Remembers the phone that just logged in, so a new login in the middle of an exam has it filled in. */
export function rememberLoginPhone(phone: { area_code: string; phone: string }): void {
  try {
    localStorage.setItem(LAST_PHONE_KEY, JSON.stringify(phone));
  } catch {
    // Only a convenience: without storage the candidate types the phone again.
  }
}

/** The phone that last logged in on this browser, or null. */
export function lastLoginPhone(): { area_code: string; phone: string } | null {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(LAST_PHONE_KEY) ?? 'null');
    if (v && typeof v === 'object' && 'phone' in v && 'area_code' in v) {
      const { phone, area_code } = v as Record<string, unknown>;
      if (typeof phone === 'string' && typeof area_code === 'string') return { phone, area_code };
    }
  } catch {
    // An unreadable entry counts as none.
  }
  return null;
}
