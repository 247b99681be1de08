/** The Integrations page's server data: webhook endpoints, the delivery log and API tokens. */
import { api, type ApiTokenListQuery, type DeliveryListQuery } from '@examhall/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request } from '../../../api/client.js';
import { can, useStaffMe } from '../../../session/staff.js';

/** Every query key of the page starts with this, so a change refreshes them all. */
export const INTEGRATIONS_KEY = ['admin', 'integrations'] as const;

/** True when the account may use the page (admins). */
export function useMayIntegrate(): { known: boolean; allowed: boolean } {
  const me = useStaffMe();
  return { known: me.data !== undefined, allowed: can(me.data, 'system.manage') };
}

/** Webhook endpoints with their counts. */
export function useWebhooks() {
  const { allowed } = useMayIntegrate();
  return useQuery({
    queryKey: [...INTEGRATIONS_KEY, 'webhooks'],
    queryFn: ({ signal }) => request(api.webhookList, { signal }),
    enabled: allowed,
  });
}

/** One page of the delivery log; read again every few seconds while something waits for a try. */
export function useDeliveries(query: DeliveryListQuery) {
  const { allowed } = useMayIntegrate();
  return useQuery({
    queryKey: [...INTEGRATIONS_KEY, 'deliveries', query],
    queryFn: ({ signal }) => request(api.webhookDeliveries, { query, signal }),
    enabled: allowed,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some((d) => d.status === 'pending') ? 5_000 : false),
  });
}

/** One page of API tokens. */
export function useApiTokens(query: ApiTokenListQuery) {
  const { allowed } = useMayIntegrate();
  return useQuery({
    queryKey: [...INTEGRATIONS_KEY, 'tokens', query],
    queryFn: ({ signal }) => request(api.apiTokenList, { query, signal }),
    enabled: allowed,
    placeholderData: keepPreviousData,
  });
}
