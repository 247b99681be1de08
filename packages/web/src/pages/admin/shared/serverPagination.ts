/** The pager under a server-paged table: the page and size the list was asked for, the total, sizes to pick from. */
import type { TablePaginationConfig } from 'antd';
import type { MessageParams } from '../../../i18n/format.js';
import type { MessageKey } from '../../../i18n/index.js';
import { PAGE_SIZES, type ListPaging } from './listParams.js';

/** The pager for `paging` over `total` rows (0 while the list loads), saying the total in the page's language. */
export function serverPagination(
  paging: Pick<ListPaging, 'page' | 'page_size'>,
  total: number | undefined,
  t: (key: MessageKey, params?: MessageParams) => string,
): TablePaginationConfig {
  return {
    current: paging.page,
    pageSize: paging.page_size,
    total: total ?? 0,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    showTotal: (n) => t('console.common.total', { n }),
  };
}
