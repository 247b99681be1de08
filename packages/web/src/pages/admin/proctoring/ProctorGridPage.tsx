import type { GridFilter, GridSort } from '@examhall/contract';
import { Alert, Badge, Breadcrumb, Empty, Pagination, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import NotFound from '../../NotFound.js';
import { AttemptDrawer } from './AttemptDrawer.js';
import { GridTile } from './GridTile.js';
import { GridToolbar } from './GridToolbar.js';
import { useLiveGrid, useServerNow } from './liveGrid.js';
import { RiskFeed } from './RiskFeed.js';

/** Tiles per page: enough to watch a room at once, few enough that the page stays quick with any number. */
const PAGE_SIZE = 60;

/** The live grid of one exam: a tile per attempt, updated from the proctor stream without reloading. */
export default function ProctorGridPage() {
  const { examId: raw } = useParams();
  const examId = Number(raw);
  const me = useStaffMe();
  if (!Number.isInteger(examId) || examId <= 0) return <NotFound embedded />;
  if (me.data && !can(me.data, 'proctor.watch')) return <Forbidden />;
  return <Grid examId={examId} />;
}

function Forbidden() {
  const { t } = useI18n();
  return <Alert type="warning" showIcon title={t('admin.forbidden')} />;
}

function Grid({ examId }: { examId: number }) {
  const { t } = useI18n();
  const [filter, setFilter] = useState<GridFilter>('all');
  const [sort, setSort] = useState<GridSort>('attempt');
  const [page, setPage] = useState(1);
  const live = useLiveGrid(examId, { filter, sort, page, pageSize: PAGE_SIZE });
  const now = useServerNow(live.offset);
  const [open, setOpen] = useState<number | null>(null);
  const byId = new Map(live.tiles.map((tile) => [tile.attempt_id, tile]));
  const title =
    live.examName !== null
      ? t('proctor.grid.title', { name: live.examName })
      : t('console.proctor.gridTitle', { id: examId });
  useDocumentTitle(title);

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Breadcrumb
        items={[
          { title: <Link to="/admin/proctoring">{t('console.proctor.title')}</Link> },
          { title: live.examName ?? `#${examId}` },
        ]}
      />
      <Space wrap align="center">
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }} data-testid="proctor-grid-title">
          {title}
        </Typography.Title>
        <span data-testid="proctor-live" data-connected={live.connected ? '1' : '0'}>
          <Badge
            status={live.connected ? 'processing' : 'default'}
            text={live.connected ? t('console.proctor.live') : t('console.proctor.reconnecting')}
          />
        </span>
      </Space>
      {live.error && <Alert type="error" showIcon title={t('common.loadFailed', { msg: live.error })} />}
      {live.storageFull && (
        <Alert
          type="warning"
          showIcon
          title={t('proctor.grid.storageFull')}
          description={t('proctor.grid.storageFullHint')}
          data-testid="proctor-storage-full"
        />
      )}
      <GridToolbar
        filter={filter}
        sort={sort}
        counts={live.counts}
        total={live.total}
        phoneCheck={live.phoneCheck}
        onFilter={(f) => {
          setFilter(f);
          setPage(1);
        }}
        onSort={(s) => {
          setSort(s);
          setPage(1);
        }}
      />
      <div
        data-testid="proctor-grid"
        data-count={live.tiles.length}
        style={{ display: 'grid', gap: 16, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}
      >
        {live.tiles.map((tile) => (
          <GridTile
            key={tile.attempt_id}
            tile={tile}
            now={now}
            phoneCheck={live.phoneCheck}
            onOpen={() => setOpen(tile.attempt_id)}
          />
        ))}
      </div>
      {live.tiles.length === 0 && !live.error && (
        <Empty description={live.counts?.all ? t('proctor.grid.noMatch') : t('console.proctor.noAttempts')} />
      )}
      {live.total > PAGE_SIZE && (
        <Pagination
          current={page}
          pageSize={PAGE_SIZE}
          total={live.total}
          showSizeChanger={false}
          onChange={setPage}
          data-testid="proctor-grid-pages"
        />
      )}
      <RiskFeed risks={live.risks} nameOf={(id) => byId.get(id)?.name} onOpen={setOpen} />
      <AttemptDrawer
        attemptId={open}
        tile={open === null ? undefined : byId.get(open)}
        now={now}
        onClose={() => setOpen(null)}
      />
    </Space>
  );
}
