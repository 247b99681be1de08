/** What the grading area's views share of their server data: one refresh after a mark or a setting. */
import { api } from '@examhall/contract';
import type { QueryClient } from '@tanstack/react-query';
import { queryKey } from '../../../api/queryKeys.js';

/** Every call a grading view reads: a mark or a setting can change what each of them answers. */
const GRADING_VIEWS = [
  api.gradingExams,
  api.gradingSetup,
  api.gradingNext,
  api.gradingItem,
  api.gradingProgress,
  api.gradingReconcile,
];

/** Refetches every grading view of the console; resolves once those on screen have their new answers. */
export function invalidateGrading(client: QueryClient): Promise<unknown> {
  return Promise.all(GRADING_VIEWS.map((call) => client.invalidateQueries({ queryKey: queryKey(call) })));
}
