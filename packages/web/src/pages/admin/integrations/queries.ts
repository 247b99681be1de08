/** The Integrations page's server data: webhook endpoints, the delivery log and API tokens. */
import { api, type ApiTokenListQuery, type DeliveryListQuery } from '@examhall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { request } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useServerList } from '../shared/serverList.js';

/** Refetches everything the page shows (addresses' counts, deliveries, tokens): any change may touch them all. */
export function useRefreshIntegrations(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    for (const call of [api.webhookList, api.webhookDeliveries, api.apiTokenList])
      void queryClient.invalidateQueries({ queryKey: queryKey(call) });
  }, [queryClient]);
}

/** True when the account may use the page (admins). */
export function useMayIntegrate(): { known: boolean; allowed: boolean } {
  const me = useStaffMe();
  return { known: me.data !== undefined, allowed: can(me.data, 'system.manage') };
}

/** Webhook endpoints with their counts. */
export function useWebhooks() {
  const { allowed } = useMayIntegrate();
  return useQuery({
    queryKey: queryKey(api.webhookList),
    queryFn: ({ signal }) => request(api.webhookList, { signal }),
    enabled: allowed,
  });
}

/** One page of the delivery log; read again every few seconds while something waits for a try. */
export function useDeliveries(query: DeliveryListQuery) {
  const { allowed } = useMayIntegrate();
  return useServerList(api.webhookDeliveries, query, {
    enabled: allowed,
    refetchInterval: (data) => (data?.list.some((d) => d.status === 'pending') ? 5_000 : false),
  });
}

/** One page of API tokens. */
export function useApiTokens(query: ApiTokenListQuery) {
  const { allowed } = useMayIntegrate();
  return useServerList(api.apiTokenList, query, { enabled: allowed });
}
