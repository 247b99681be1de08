/** The question list's query from the page address, and back. Framework-free so it is tested on its own. */
import {
  BANK_SORTS,
  QUESTION_KINDS,
  type BankQuestionQuery,
  type BankSort,
  type QuestionKind,
} from '@examhall/contract';
import { intParam, readPaging, textParam } from '../shared/listParams.js';

/** Which questions the list shows: all, those in no folder, or a folder's. */
export type FolderScope = 'all' | 'unfiled' | number;

/** The folder scope named by the address (`folder=unfiled` or `folder=<id>`). */
export function scopeOf(params: URLSearchParams): FolderScope {
  const folder = params.get('folder');
  if (folder === 'unfiled') return 'unfiled';
  const id = intParam(params, 'folder');
  return id !== undefined && id > 0 ? id : 'all';
}

/** The bank list's query for the address: folder, search, filters, paging and sort. */
export function bankQueryFromParams(params: URLSearchParams): BankQuestionQuery {
  const paging = readPaging<BankSort>(params, BANK_SORTS);
  const scope = scopeOf(params);
  const kind = params.get('kind');
  const difficulty = intParam(params, 'difficulty');
  return {
    page: paging.page,
    page_size: paging.page_size,
    sort: paging.sort,
    order: paging.order,
    ...(typeof scope === 'number' ? { folder_id: scope, sub_folders: params.get('sub') !== '0' } : {}),
    ...(scope === 'unfiled' ? { unfiled: true } : {}),
    kind: QUESTION_KINDS.includes(kind as QuestionKind) ? (kind as QuestionKind) : undefined,
    difficulty: difficulty !== undefined && difficulty >= 1 && difficulty <= 5 ? difficulty : undefined,
    tag: textParam(params, 'tag'),
    knowledge_point: textParam(params, 'kp'),
    author_id: intParam(params, 'author'),
    ...(params.get('flagged') === '1' ? { flagged: true } : {}),
    q: textParam(params, 'q'),
  };
}

/** True when the address narrows the list beyond its folder (search or a filter). */
export function isFiltered(params: URLSearchParams): boolean {
  return ['q', 'kind', 'difficulty', 'tag', 'kp', 'author', 'flagged'].some((k) => textParam(params, k) !== undefined);
}
