/**
 * What a candidate reads after submitting: the explanations of their attempt's questions. An area of its own, so
 * that the exam page, which imports the exam area, carries none of its schemas.
 */
import * as E from '../schemas/review.js';
import { call } from './define.js';

/** What a candidate reads after submitting. */
export const reviewCalls = {
  examExplanations: call({
    method: 'GET',
    path: '/exam/explanations',
    summary: "The explanations of the submitted attempt's questions, where the exam shows them",
    query: E.ExplanationsQuery,
    body: undefined,
    data: E.ExplanationsData,
    auth: 'candidate',
  }),
};
