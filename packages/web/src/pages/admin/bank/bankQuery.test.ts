import { describe, expect, it } from 'vitest';
import { bankQueryFromParams, isFiltered, scopeOf } from './bankQuery.js';

describe('the bank list query from the address', () => {
  it('reads the folder scope', () => {
    expect(scopeOf(new URLSearchParams(''))).toBe('all');
    expect(scopeOf(new URLSearchParams('folder=unfiled'))).toBe('unfiled');
    expect(scopeOf(new URLSearchParams('folder=12'))).toBe(12);
    expect(scopeOf(new URLSearchParams('folder=x'))).toBe('all');
  });

  it('combines folder, search, filters, paging and sort', () => {
    const q = bankQueryFromParams(
      new URLSearchParams(
        'folder=3&sub=0&q=数组&kind=single&difficulty=4&tag=java&kp=hash&author=7&sort=used&order=asc&page=2',
      ),
    );
    expect(q).toEqual({
      page: 2,
      page_size: 20,
      sort: 'used',
      order: 'asc',
      folder_id: 3,
      sub_folders: false,
      kind: 'single',
      difficulty: 4,
      tag: 'java',
      knowledge_point: 'hash',
      author_id: 7,
      q: '数组',
    });
  });

  it('drops values the call would refuse and asks for unfiled questions', () => {
    const q = bankQueryFromParams(new URLSearchParams('folder=unfiled&kind=essay&difficulty=9&sort=nope'));
    expect(q.unfiled).toBe(true);
    expect(q.folder_id).toBeUndefined();
    expect(q.kind).toBeUndefined();
    expect(q.difficulty).toBeUndefined();
    expect(q.sort).toBeUndefined();
  });

  it('tells a filtered list from a folder', () => {
    expect(isFiltered(new URLSearchParams('folder=3&page=2'))).toBe(false);
    expect(isFiltered(new URLSearchParams('folder=3&q=x'))).toBe(true);
    expect(isFiltered(new URLSearchParams('flagged=1'))).toBe(true);
  });

  it("asks for the questions item analysis flagged, the home page's link (an author's own)", () => {
    expect(bankQueryFromParams(new URLSearchParams('author=7&flagged=1'))).toMatchObject({
      author_id: 7,
      flagged: true,
    });
    expect(bankQueryFromParams(new URLSearchParams('flagged=0')).flagged).toBeUndefined();
  });
});
