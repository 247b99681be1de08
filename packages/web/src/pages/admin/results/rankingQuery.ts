/** The ranking's query as the results page keeps it: filters, section, sort and page. */
import type { RankingQuery } from '@examhall/contract';

/** The page's ranking query (the call's input, every filter optional). */
export type RankingState = RankingQuery & { exam_id: number; page: number; page_size: number };

/** The filters an export carries: the same as the table's, as the export call's body takes them. */
export function exportFilter(q: RankingState) {
  return {
    ...(q.section ? { section: q.section } : {}),
    ...(q.school ? { school: q.school } : {}),
    ...(q.major ? { major: q.major } : {}),
    ...(q.score_min !== undefined ? { score_min: Number(q.score_min) } : {}),
    ...(q.score_max !== undefined ? { score_max: Number(q.score_max) } : {}),
    ...(q.risk_min !== undefined ? { risk_min: Number(q.risk_min) } : {}),
    ...(q.risk_max !== undefined ? { risk_max: Number(q.risk_max) } : {}),
    ...(q.flagged !== undefined ? { flagged: q.flagged === 'true' || q.flagged === '1' } : {}),
  };
}

/** A range whose low end is above its high end: the filter says so as it is typed, before any call. */
export function rangeBackwards(min: unknown, max: unknown): boolean {
  return min !== undefined && max !== undefined && Number(min) > Number(max);
}
