import { CANDIDATE_SORTS, type CandidateListQuery, type CandidateView } from '@examhall/contract';
import { Button, Card, Input, Select, Space, Statistic } from 'antd';
import { useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { textParam } from '../shared/listParams.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { useListState } from '../shared/useListState.js';
import { CandidateFormModal } from './CandidateFormModal.js';
import { CandidateTable } from './CandidateTable.js';
import { ImportDrawer } from './ImportDrawer.js';
import { useCandidates } from './queries.js';

/** The directory's filters: text, school and whether they have logged in, kept in the address. */
function Filters(props: { params: URLSearchParams; set: (patch: Record<string, string | undefined>) => void }) {
  const { t } = useI18n();
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Input.Search
        allowClear
        placeholder={t('cand.search')}
        defaultValue={textParam(props.params, 'q')}
        onSearch={(q) => props.set({ q: q || undefined })}
        style={{ width: 240 }}
        aria-label={t('cand.search')}
        data-testid="candidate-search"
      />
      <Input.Search
        allowClear
        placeholder={t('cand.school')}
        defaultValue={textParam(props.params, 'school')}
        onSearch={(school) => props.set({ school: school || undefined })}
        style={{ width: 200 }}
        aria-label={t('cand.school')}
      />
      <Select
        value={textParam(props.params, 'login') ?? ''}
        onChange={(v) => props.set({ login: v || undefined })}
        style={{ width: 150 }}
        aria-label={t('cand.col.lastLogin')}
        options={[
          { value: '', label: t('cand.login.any') },
          { value: 'yes', label: t('cand.login.yes') },
          { value: 'no', label: t('cand.login.no') },
        ]}
      />
    </Space>
  );
}

/** The candidate directory: counts, filters, the server-paged table, add, edit and import. */
export default function CandidatesPage() {
  const { t } = useI18n();
  useDocumentTitle(t('cand.title'));
  const me = useStaffMe();
  const manage = can(me.data, 'candidate.manage');
  const { params, paging, setFilters, table } = useListState(CANDIDATE_SORTS);
  const login = textParam(params, 'login');
  const query: CandidateListQuery = {
    page: paging.page,
    page_size: paging.page_size,
    sort: paging.sort,
    order: paging.order,
    q: textParam(params, 'q'),
    school: textParam(params, 'school'),
    login: login === 'yes' || login === 'no' ? login : undefined,
  };
  const list = useCandidates(query);
  const [editing, setEditing] = useState<CandidateView | null | undefined>(undefined);
  const [importing, setImporting] = useState(false);
  if (me.data && !can(me.data, 'candidate.read')) return <Forbidden />;
  const counts = list.data?.counts;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle
        title={t('cand.title')}
        description={t('admin.area.candidates')}
        extra={
          manage && (
            <Space>
              <Button onClick={() => setImporting(true)} data-testid="candidate-import-open">
                {t('cand.import')}
              </Button>
              <Button type="primary" onClick={() => setEditing(null)} data-testid="candidate-add">
                {t('cand.add')}
              </Button>
            </Space>
          )
        }
      />
      {counts && (
        <Space size="large">
          <Statistic title={t('cand.title')} value={counts.all} />
          <Statistic title={t('cand.login.yes')} value={counts.logged_in} />
          <Statistic title={t('cand.login.no')} value={counts.never} />
        </Space>
      )}
      <Card>
        <Filters params={params} set={setFilters} />
        <LoadError error={list.error} />
        <CandidateTable
          list={list}
          state={table}
          filtered={['q', 'school', 'login'].some((k) => params.has(k))}
          canManage={manage}
          onEdit={setEditing}
        />
      </Card>
      <CandidateFormModal
        open={editing !== undefined}
        candidate={editing ?? null}
        onClose={() => setEditing(undefined)}
      />
      <ImportDrawer open={importing} onClose={() => setImporting(false)} />
    </Space>
  );
}
