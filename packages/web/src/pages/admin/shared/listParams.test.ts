import { describe, expect, it } from 'vitest';
import {
  intListParam,
  intParam,
  pagingFromTable,
  patchParams,
  readPaging,
  sortFromTable,
  tableOrder,
  textParam,
} from './listParams.js';

const SORTS = ['time', 'name'] as const;

describe('a list state in the address', () => {
  it('reads paging and sorting, falling back on values it does not know', () => {
    expect(readPaging(new URLSearchParams('page=3&page_size=50&sort=name&order=asc'), SORTS)).toEqual({
      page: 3,
      page_size: 50,
      sort: 'name',
      order: 'asc',
    });
    expect(readPaging(new URLSearchParams('page=-1&page_size=x&sort=nope&order=up'), SORTS)).toEqual({
      page: 1,
      page_size: 20,
      sort: undefined,
      order: undefined,
    });
    expect(readPaging(new URLSearchParams('page_size=9999'), SORTS).page_size).toBe(200);
  });

  it('patches filters, dropping empty ones, repeating lists and going back to page 1', () => {
    const start = new URLSearchParams('page=4&q=old&tag=a');
    const next = patchParams(start, { q: 'new', tag: ['x', 'y'], kind: '', folder: null });
    expect(next.toString()).toBe('q=new&tag=x&tag=y');
    expect(patchParams(next, { page: 2 }).get('page')).toBe('2');
    expect(start.toString()).toBe('page=4&q=old&tag=a');
  });

  it('reads numbers and text', () => {
    const p = new URLSearchParams('a=3&b=x&c=&l=1&l=2&l=z');
    expect(intParam(p, 'a')).toBe(3);
    expect(intParam(p, 'b')).toBeUndefined();
    expect(intParam(p, 'c')).toBeUndefined();
    expect(intListParam(p, 'l')).toEqual([1, 2]);
    expect(textParam(p, 'b')).toBe('x');
    expect(textParam(p, 'c')).toBeUndefined();
  });

  it("maps antd's sorter to the call's sort and back", () => {
    expect(sortFromTable({ columnKey: 'name', order: 'ascend' }, SORTS)).toEqual({ sort: 'name', order: 'asc' });
    expect(sortFromTable([{ columnKey: 'time', order: 'descend' }], SORTS)).toEqual({ sort: 'time', order: 'desc' });
    expect(sortFromTable({ columnKey: 'other', order: 'ascend' }, SORTS)).toEqual({
      sort: undefined,
      order: undefined,
    });
    expect(sortFromTable({ columnKey: 'name', order: null }, SORTS)).toEqual({ sort: undefined, order: undefined });
    const paging = readPaging(new URLSearchParams('sort=name&order=desc'), SORTS);
    expect(tableOrder(paging, 'name')).toBe('descend');
    expect(tableOrder(paging, 'time')).toBeNull();
    const none = readPaging(new URLSearchParams(''), SORTS);
    expect(tableOrder(none, 'time', { sort: 'time', order: 'desc' })).toBe('descend');
    expect(tableOrder(none, 'name', { sort: 'time', order: 'desc' })).toBeNull();
  });

  it("takes the table's page, and starts again at page 1 on another sort or page size", () => {
    const paging = { page: 3, page_size: 20, sort: 'name' as const, order: 'asc' as const };
    const same = { columnKey: 'name', order: 'ascend' } as const;
    expect(pagingFromTable(paging, { current: 4, pageSize: 20 }, same, SORTS)).toEqual({ ...paging, page: 4 });
    expect(pagingFromTable(paging, { current: 3, pageSize: 50 }, same, SORTS)).toEqual({
      ...paging,
      page: 1,
      page_size: 50,
    });
    expect(
      pagingFromTable(paging, { current: 3, pageSize: 20 }, { columnKey: 'time', order: 'descend' }, SORTS),
    ).toEqual({ page: 1, page_size: 20, sort: 'time', order: 'desc' });
    expect(pagingFromTable(paging, { current: 3 }, {}, SORTS)).toEqual({
      page: 1,
      page_size: 20,
      sort: undefined,
      order: undefined,
    });
  });
});
