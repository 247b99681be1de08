import { ImportOutlined, PlusOutlined } from '@ant-design/icons';
import { BANK_SORTS } from '@examhall/contract';
import { Button, Card, Col, Row, Space } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { useListState } from '../shared/useListState.js';
import { bankQueryFromParams, isFiltered, scopeOf, type FolderScope } from './bankQuery.js';
import { BulkBar, BulkOutcomeNotice, type BulkOutcome } from './BulkBar.js';
import { FolderTree } from './FolderTree.js';
import { ExportMenu } from './imports/ExportMenu.js';
import { ImportDrawer } from './imports/ImportDrawer.js';
import { QuestionDrawer } from './QuestionDrawer.js';
import { QuestionFilters } from './QuestionFilters.js';
import { QuestionsEmpty, QuestionTable } from './QuestionTable.js';
import { useQuestions } from './queries.js';

/** The question bank: folders on the left; on the right the searchable, filterable list with bulk actions and the editor. */
export default function BankPage() {
  const { t } = useI18n();
  useDocumentTitle(t('admin.menu.questions'));
  const me = useStaffMe();
  const allowed = can(me.data, 'bank.read');
  const manage = can(me.data, 'bank.manage');
  const { params, setFilters, table } = useListState(BANK_SORTS);
  const query = useMemo(() => bankQueryFromParams(params), [params]);
  const list = useQuestions(query, allowed);
  const scope = scopeOf(params);
  const [selected, setSelected] = useState<number[]>([]);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);
  const [importing, setImporting] = useState(false);

  // The editor is part of the address (`edit=new` or `edit=<id>`), so a question can be linked to and reloaded.
  const editing = params.get('edit');
  const open = useCallback(
    (id: number | 'new') => setFilters({ edit: id, page: params.get('page') }),
    [setFilters, params],
  );
  const close = useCallback(() => setFilters({ edit: null, page: params.get('page') }), [setFilters, params]);
  const onScope = useCallback(
    (next: FolderScope) => setFilters({ folder: next === 'all' ? null : next, sub: null }),
    [setFilters],
  );
  const seenAuthors = useMemo(() => (list.data?.list ?? []).map((q) => q.author), [list.data]);

  if (me.data && !allowed) return <Forbidden />;
  const filtered = isFiltered(params);
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageTitle
        title={t('admin.menu.questions')}
        description={t('console.bank.about')}
        extra={
          <Space wrap>
            <ExportMenu
              source={
                selected.length > 0 ? { questionIds: selected } : typeof scope === 'number' ? { folderId: scope } : null
              }
              testId="bank-export"
            />
            {manage && (
              <Button
                icon={<ImportOutlined aria-hidden />}
                onClick={() => setImporting(true)}
                data-testid="bank-import"
              >
                {t('console.import.button')}
              </Button>
            )}
            {manage && (
              <Button
                type="primary"
                icon={<PlusOutlined aria-hidden />}
                onClick={() => open('new')}
                data-testid="bank-new"
              >
                {t('console.bank.newQuestion')}
              </Button>
            )}
          </Space>
        }
      />
      <Row gutter={[16, 16]} align="top">
        <Col xs={24} lg={6} xxl={5}>
          <FolderTree scope={scope} onScope={onScope} />
        </Col>
        <Col xs={24} lg={18} xxl={19}>
          <Card>
            <QuestionFilters
              params={params}
              setFilters={setFilters}
              seenAuthors={seenAuthors}
              inFolder={typeof scope === 'number'}
            />
            {outcome && (
              <BulkOutcomeNotice outcome={outcome} onClose={() => setOutcome(null)} onOpen={(id) => open(id)} />
            )}
            {manage && (
              <BulkBar
                selected={selected}
                onClear={() => setSelected([])}
                onDone={(o) => {
                  setOutcome(o);
                  // What was kept stays selected, to act on it another way; the rest is done.
                  setSelected(o.result.kept.map((k) => k.id));
                }}
              />
            )}
            <LoadError error={list.error} />
            <QuestionTable
              list={list}
              state={table}
              selected={selected}
              onSelect={manage ? setSelected : null}
              onOpen={open}
              empty={
                <QuestionsEmpty
                  filtered={filtered}
                  canCreate={manage}
                  onCreate={() => open('new')}
                  onClear={() =>
                    setFilters({ q: null, kind: null, difficulty: null, tag: null, kp: null, author: null })
                  }
                />
              }
            />
          </Card>
        </Col>
      </Row>
      <QuestionDrawer
        target={editing === 'new' ? 'new' : editing !== null && Number(editing) > 0 ? Number(editing) : null}
        folderId={typeof scope === 'number' ? scope : null}
        readOnly={!manage}
        onClose={close}
        onCreated={(id) => open(id)}
      />
      {manage && importing && (
        <ImportDrawer
          open
          folderId={typeof scope === 'number' ? scope : null}
          onClose={() => setImporting(false)}
          onImported={(folderId) => onScope(folderId)}
        />
      )}
    </Space>
  );
}
