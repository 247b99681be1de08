/**
 * Query keys of GET calls, derived from the API catalogue: one call has one key (its method and path, then
 * its query), so every page that reads it shares the cache entry and one invalidation reaches them all.
 */
import type { CallDef, CallQuery } from '@examhall/contract';

/** The TanStack Query key of a call with its query parameters (leave them out to match every query of it). */
export function queryKey<C extends CallDef>(call: C, query?: CallQuery<C>): readonly unknown[] {
  return query === undefined ? [call.method, call.path] : [call.method, call.path, query];
}
