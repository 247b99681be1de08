import { describe, expect, it } from 'vitest';
import { translate } from '../../../i18n/format.js';
import '../../../i18n/console.js';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from './listParams.js';
import { serverPagination } from './serverPagination.js';

describe('the pager under a server-paged table', () => {
  it('shows the page asked for, the total in the page language and the sizes to pick from', () => {
    const pager = serverPagination({ page: 3, page_size: 50 }, 1234, (key, params) => translate('en-US', key, params));
    expect(pager).toMatchObject({ current: 3, pageSize: 50, total: 1234, showSizeChanger: true });
    expect(pager.pageSizeOptions).toEqual(PAGE_SIZES.map(String));
    expect(pager.showTotal?.(1234, [101, 150])).toBe('1234 in all');
    const zh = serverPagination({ page: 1, page_size: 20 }, 7, (key, params) => translate('zh-CN', key, params));
    expect(zh.showTotal?.(7, [1, 7])).toBe('共 7 条');
  });

  it('counts no rows while the list loads', () => {
    const pager = serverPagination({ page: 1, page_size: DEFAULT_PAGE_SIZE }, undefined, (key) => key);
    expect(pager.total).toBe(0);
  });
});
