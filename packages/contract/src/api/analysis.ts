/** Results analysis: item analysis of an exam's questions over its finished attempts. */
import * as S from '../schemas/analysis.js';
import { call } from './define.js';

/** The results area's analysis calls. */
export const analysisCalls = {
  itemAnalysis: call({
    method: 'GET',
    path: '/admin/analysis/items',
    summary:
      "Item analysis of an exam's version: per question facility, SD, item-rest r, upper-lower 27 % index, option shares; Cronbach's alpha",
    query: S.ItemAnalysisQuery,
    body: undefined,
    data: S.ItemAnalysisData,
    auth: 'staff',
    permission: 'grade.read',
    scope: { kind: 'exam', field: 'exam_id' },
    refs: { version_id: 'version' },
  }),
} as const;
