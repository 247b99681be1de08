/** The evaluation (personality) section. */
import * as A from '../schemas/answer.js';
import * as C from '../schemas/ceping.js';
import { call } from './define.js';

/** The evaluation (personality) section. */
export const cepingCalls = {
  // evaluation
  cepingLineOrder: call({
    method: 'GET',
    path: '/ceping/exam-line-order',
    summary: 'Evaluation answer card',
    query: C.CepingExamQuery,
    body: undefined,
    data: C.CepingLineOrderData,
    auth: 'candidate',
  }),
  cepingOrderList: call({
    method: 'GET',
    path: '/ceping/exam-order-list',
    summary: 'Evaluation items in order',
    query: C.CepingExamQuery,
    body: undefined,
    data: C.CepingOrderListData,
    auth: 'candidate',
  }),
  cepingShow: call({
    method: 'GET',
    path: '/ceping/exam-show',
    summary: 'One evaluation item',
    query: C.CepingShowQuery,
    body: undefined,
    data: C.CepingShowData,
    auth: 'candidate',
  }),
  cepingShowNew: call({
    method: 'GET',
    path: '/ceping/exam-show-new',
    summary: 'One evaluation item with neighbours',
    query: C.CepingShowQuery,
    body: undefined,
    data: C.CepingShowData,
    auth: 'candidate',
  }),
  cepingAnswer: call({
    method: 'POST',
    path: '/ceping/answer',
    summary: 'Answer an evaluation item',
    query: undefined,
    body: C.CepingAnswerBody,
    data: A.AnswerReceipt,
    auth: 'candidate',
  }),
  cepingFinish: call({
    method: 'POST',
    path: '/ceping/exam-finish',
    summary: 'Finish the evaluation and score its dimensions',
    query: undefined,
    body: C.CepingFinishBody,
    data: C.CepingFinishData,
    auth: 'candidate',
  }),
} as const;
