import { QueryClient } from '@tanstack/react-query';

/** Shared query cache. The HTTP client retries reads itself, so queries do not retry again. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
