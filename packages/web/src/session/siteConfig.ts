/** Site settings every page may need: maintenance window, support phone, cookie domain, hooks. */
import { type SiteConfigData, userCalls } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { request } from '../api/client.js';
import { queryClient } from '../queryClient.js';

let cookieDomain = '';

/** The domain the auth cookie lives on, as last told by the server (empty for the current host). */
export function getCookieDomain(): string {
  return cookieDomain;
}

/** Query key of the site settings. */
export const SITE_CONFIG_KEY = ['site-config'] as const;

async function fetchSiteConfig({ signal }: { signal: AbortSignal }): Promise<SiteConfigData> {
  const data = await request(userCalls.siteConfig, { signal });
  cookieDomain = data.cookie_domain;
  return data;
}

/** The cookie domain, fetching the site settings first when they have not arrived yet. */
export async function ensureCookieDomain(): Promise<string> {
  try {
    await queryClient.ensureQueryData({ queryKey: SITE_CONFIG_KEY, queryFn: fetchSiteConfig });
  } catch {
    // Without the settings the host-only cookie is still removed.
  }
  return cookieDomain;
}

/** The site settings; refreshed every minute so a maintenance window opens and closes on time. */
export function useSiteConfig() {
  return useQuery({ queryKey: SITE_CONFIG_KEY, queryFn: fetchSiteConfig, staleTime: 60_000, refetchInterval: 60_000 });
}
