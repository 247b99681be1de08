/**
 * A server-paged list's state (page, page size, sort, filters) kept in the page address, so a reload, a
 * shared link and the back button show the same list. Framework-free so it is tested on its own.
 */

/** Sort direction as the list calls take it. */
export type SortOrder = 'asc' | 'desc';

/** The paging and sorting part of a list's state. */
export interface ListPaging<S extends string = string> {
  /** 1-based page. */
  page: number;
  /** Rows per page. */
  page_size: number;
  /** Sort column, or undefined for the call's default. */
  sort: S | undefined;
  /** Sort direction, or undefined for the call's default. */
  order: SortOrder | undefined;
}

/** Page sizes offered under the tables. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** Rows per page unless the address says otherwise. */
export const DEFAULT_PAGE_SIZE = 20;

function positiveInt(text: string | null, fallback: number, max: number): number {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
}

/** Reads paging and sorting from the address; values it does not know fall back to the defaults. */
export function readPaging<S extends string>(params: URLSearchParams, sorts: readonly S[]): ListPaging<S> {
  const sort = params.get('sort');
  const order = params.get('order');
  return {
    page: positiveInt(params.get('page'), 1, 100_000),
    page_size: positiveInt(params.get('page_size'), DEFAULT_PAGE_SIZE, 200),
    sort: sorts.includes(sort as S) ? (sort as S) : undefined,
    order: order === 'asc' || order === 'desc' ? order : undefined,
  };
}

/** A filter value as kept in the address: text, a number, a list of them, or nothing. */
export type ParamValue = string | number | readonly (string | number)[] | null | undefined;

/**
 * The address's parameters with `patch` applied: empty values are removed, lists become repeated
 * parameters, and any change other than the page itself goes back to page 1.
 */
export function patchParams(params: URLSearchParams, patch: Readonly<Record<string, ParamValue>>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(patch)) {
    next.delete(key);
    if (value === null || value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const v of value as readonly (string | number)[]) next.append(key, String(v));
    else next.set(key, String(value as string | number));
  }
  if (!('page' in patch)) next.delete('page');
  return next;
}

/** A whole-number parameter, or undefined. */
export function intParam(params: URLSearchParams, key: string): number | undefined {
  const text = params.get(key);
  if (text === null || text === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) ? n : undefined;
}

/** Whole-number values of a repeated parameter. */
export function intListParam(params: URLSearchParams, key: string): number[] {
  return params
    .getAll(key)
    .map(Number)
    .filter((n) => Number.isInteger(n));
}

/** A text parameter, or undefined when absent or empty. */
export function textParam(params: URLSearchParams, key: string): string | undefined {
  const text = params.get(key);
  return text === null || text === '' ? undefined : text;
}

/** A table's sort as antd reports it: the column key and 'ascend'/'descend'/null. */
export interface TableSort {
  columnKey?: unknown;
  order?: 'ascend' | 'descend' | null;
}

/** Turns antd's sorter into the call's sort and order (no order: the call's default). */
export function sortFromTable<S extends string>(
  sorter: TableSort | readonly TableSort[],
  sorts: readonly S[],
): { sort: S | undefined; order: SortOrder | undefined } {
  const one = Array.isArray(sorter) ? (sorter as readonly TableSort[])[0] : (sorter as TableSort);
  const key = typeof one?.columnKey === 'string' ? one.columnKey : undefined;
  if (!one?.order || !key || !sorts.includes(key as S)) return { sort: undefined, order: undefined };
  return { sort: key as S, order: one.order === 'ascend' ? 'asc' : 'desc' };
}

/** A list's paging and sort, and how its table changes them (the address or the component keeps them). */
export interface PagingState<S extends string = string> {
  paging: ListPaging<S>;
  setPaging: (next: ListPaging<S>) => void;
}

/** The list's paging after a change in its table: another sort or page size starts again at page 1. */
export function pagingFromTable<S extends string>(
  paging: ListPaging<S>,
  pagination: { current?: number; pageSize?: number },
  sorter: TableSort | readonly TableSort[],
  sorts: readonly S[],
): ListPaging<S> {
  const { sort, order } = sortFromTable(sorter, sorts);
  const page_size = pagination.pageSize ?? paging.page_size;
  const restart = sort !== paging.sort || order !== paging.order || page_size !== paging.page_size;
  return { page: restart ? 1 : (pagination.current ?? 1), page_size, sort, order };
}

/**
 * The order antd shows on a column for the list's sort; `fallback` is the call's default sort, shown when
 * the address names none.
 */
export function tableOrder(
  paging: ListPaging,
  columnKey: string,
  fallback?: { sort: string; order: SortOrder },
): 'ascend' | 'descend' | null {
  const sort = paging.sort ?? fallback?.sort;
  const order = paging.sort ? paging.order : fallback?.order;
  if (sort !== columnKey || !order) return null;
  return order === 'asc' ? 'ascend' : 'descend';
}
