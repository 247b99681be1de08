import {
  api,
  AUDIT_ACTION_TEXTS,
  AUDIT_OBJECT_TEXTS,
  AUDIT_SORTS,
  enumTextOf,
  OTHER_TEXT,
  type AuditEntry,
  type AuditQuery,
} from '@examhall/contract';
import { Card, Empty, Space, Tag, type TableColumnsType } from 'antd';
import { LinkButton } from '../shared/LinkButton.js';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { intParam, textParam } from '../shared/listParams.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { useServerList } from '../shared/serverList.js';
import { ServerTable } from '../shared/ServerTable.js';
import { useListState } from '../shared/useListState.js';
import { AuditDiff } from './AuditDiff.js';
import { AuditFilters } from './AuditFilters.js';
import { countChanges, diffEntries } from './diff.js';

const DEFAULT_SORT = { sort: 'time', order: 'desc' } as const;

/** The audit log: who changed what and when, filtered and paged on the server, each entry's before/after as a diff. */
export default function AuditPage() {
  const { t } = useI18n();
  useDocumentTitle(t('admin.menu.audit'));
  const me = useStaffMe();
  const allowed = can(me.data, 'audit.read');
  const { params, paging, setFilters, table } = useListState(AUDIT_SORTS);
  const query: AuditQuery = {
    page: paging.page,
    page_size: paging.page_size,
    sort: paging.sort,
    order: paging.order,
    actor_id: intParam(params, 'actor_id'),
    action: textParam(params, 'action'),
    object_kind: textParam(params, 'object_kind'),
    object_id: intParam(params, 'object_id'),
    from: intParam(params, 'from'),
    to: intParam(params, 'to'),
  };
  const list = useServerList(api.auditList, query, { enabled: allowed });
  const filtered = ['actor_id', 'action', 'object_kind', 'object_id', 'from', 'to'].some((k) => params.has(k));
  const columns = useColumns(setFilters);
  if (me.data && !allowed) return <Forbidden />;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle title={t('admin.menu.audit')} description={t('admin.area.audit')} />
      <Card>
        <AuditFilters params={params} setFilters={setFilters} />
        <LoadError error={list.error} />
        <div data-testid="audit-table">
          <ServerTable
            columns={columns}
            list={list}
            state={table}
            sorts={AUDIT_SORTS}
            defaultSort={DEFAULT_SORT}
            scroll={{ x: true }}
            expandable={{
              expandedRowRender: (entry) => <AuditDiff entry={entry} />,
              rowExpandable: (entry) => entry.before !== null || entry.after !== null,
            }}
            empty={<Empty description={filtered ? t('console.audit.noMatch') : t('console.audit.empty')} />}
          />
        </div>
      </Card>
    </Space>
  );
}

function useColumns(setFilters: ReturnType<typeof useListState>['setFilters']): TableColumnsType<AuditEntry> {
  const { t, lang } = useI18n();
  return useMemo(
    () => [
      {
        title: t('console.audit.time'),
        key: 'time',
        dataIndex: 'time',
        sorter: true,
        // The default sort never goes back to "none": it alternates.
        sortDirections: ['descend', 'ascend', 'descend'],
        render: (ms: number) => serverTime(ms),
      },
      {
        title: t('console.audit.actor'),
        key: 'actor',
        dataIndex: 'actor_name',
        sorter: true,
        render: (name: string, e: AuditEntry) =>
          e.actor_kind === 'system' ? (
            <Tag>{t('console.audit.system')}</Tag>
          ) : (
            <LinkButton onClick={() => setFilters({ actor_id: e.actor_id })}>{name}</LinkButton>
          ),
      },
      {
        title: t('console.audit.action'),
        key: 'action',
        dataIndex: 'action',
        sorter: true,
        render: (action: string) => enumTextOf(AUDIT_ACTION_TEXTS, action, lang, OTHER_TEXT),
      },
      {
        title: t('console.audit.object'),
        key: 'object',
        sorter: true,
        render: (_: unknown, e: AuditEntry) => <ObjectCell entry={e} />,
      },
      {
        title: t('console.audit.changes'),
        key: 'changes',
        render: (_: unknown, e: AuditEntry) => changeSummary(t, e),
      },
    ],
    [t, lang, setFilters],
  );
}

/** What kind of change an entry is, in a word, with the number of fields it changed. */
function changeSummary(t: ReturnType<typeof useI18n>['t'], e: AuditEntry): string {
  if (e.before === null && e.after === null) return '–';
  if (e.before === null) return t('console.audit.created');
  if (e.after === null) return t('console.audit.deleted');
  return t('console.audit.changedFields', { n: countChanges(diffEntries(e.before, e.after)) });
}

/** The object an entry is about, linked to its page where there is one. */
function ObjectCell({ entry: e }: { entry: AuditEntry }) {
  const { lang } = useI18n();
  const kind = enumTextOf(AUDIT_OBJECT_TEXTS, e.object_kind, lang, OTHER_TEXT);
  const label = e.object_id === null ? kind : `${kind} #${e.object_id}`;
  const to = objectLink(e.object_kind, e.object_id);
  return to ? <Link to={to}>{label}</Link> : <span>{label}</span>;
}

/** The console page of an object the log names, where there is one. */
export function objectLink(kind: string, id: number | null): string | null {
  if (id === null) return null;
  switch (kind) {
    case 'exam':
      return `/admin/exams/${id}`;
    case 'question':
      return `/admin/questions?edit=${id}`;
    case 'folder':
      return `/admin/questions?folder=${id}`;
    case 'staff':
      return '/admin/staff';
    case 'team':
      return '/admin/staff?tab=teams';
    default:
      return null;
  }
}
