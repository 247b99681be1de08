import { ExamPhase, type ProctorTile } from '@examhall/contract';
import { MobileOutlined, UserOutlined, WarningOutlined } from '@ant-design/icons';
import { Alert, Badge, Breadcrumb, Card, Empty, List, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import NotFound from '../../NotFound.js';
import { AttemptDrawer } from './AttemptDrawer.js';
import { remaining, useLiveGrid, useServerNow } from './liveGrid.js';
import { eventName, timeOfDay } from './labels.js';

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
  useDocumentTitle(t('console.proctor.gridTitle', { id: examId }));
  const live = useLiveGrid(examId);
  const now = useServerNow(live.offset);
  const [open, setOpen] = useState<number | null>(null);
  const byId = new Map(live.tiles.map((tile) => [tile.attempt_id, tile]));

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <Breadcrumb
        items={[
          { title: <Link to="/admin/proctoring">{t('console.proctor.title')}</Link> },
          { title: t('console.proctor.gridTitle', { id: examId }) },
        ]}
      />
      <Space wrap align="center">
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
          {t('console.proctor.gridTitle', { id: examId })}
        </Typography.Title>
        <span data-testid="proctor-live" data-connected={live.connected ? '1' : '0'}>
          <Badge
            status={live.connected ? 'processing' : 'default'}
            text={live.connected ? t('console.proctor.live') : t('console.proctor.reconnecting')}
          />
        </span>
      </Space>
      {live.error && <Alert type="error" showIcon title={t('common.loadFailed', { msg: live.error })} />}
      <div
        data-testid="proctor-grid"
        style={{ display: 'grid', gap: 16, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}
      >
        {live.tiles.map((tile) => (
          <Tile key={tile.attempt_id} tile={tile} now={now} onOpen={() => setOpen(tile.attempt_id)} />
        ))}
      </div>
      {live.tiles.length === 0 && !live.error && <Empty description={t('console.proctor.noAttempts')} />}
      <Card title={t('console.proctor.latestRisks')} size="small">
        <List
          data-testid="proctor-risk-feed"
          locale={{ emptyText: <Typography.Text type="secondary">{t('console.proctor.noRisks')}</Typography.Text> }}
          dataSource={live.risks}
          renderItem={(r) => (
            <List.Item
              key={r.record.id}
              data-testid={`proctor-risk-${r.record.id}`}
              actions={[
                <a
                  key="open"
                  href={`#attempt-${r.attempt_id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    setOpen(r.attempt_id);
                  }}
                >
                  {t('console.proctor.openAttempt')}
                </a>,
              ]}
            >
              <Space wrap>
                <WarningOutlined aria-hidden style={{ color: '#cf1322' }} />
                <Typography.Text>{timeOfDay(r.record.trigger_time)}</Typography.Text>
                <Typography.Text strong>{byId.get(r.attempt_id)?.name ?? `#${r.attempt_id}`}</Typography.Text>
                <Typography.Text>{eventName(t, r.record)}</Typography.Text>
                {r.record.detail && <Typography.Text type="secondary">{r.record.detail}</Typography.Text>}
              </Space>
            </List.Item>
          )}
        />
      </Card>
      <AttemptDrawer
        attemptId={open}
        tile={open === null ? undefined : byId.get(open)}
        now={now}
        onClose={() => setOpen(null)}
      />
    </Space>
  );
}

/** One candidate: picture, name, phase and time left, risk count, online state and phone. Opens the attempt. */
function Tile({ tile, now, onOpen }: { tile: ProctorTile; now: number; onOpen: () => void }) {
  const { t } = useI18n();
  const phase =
    tile.phase === ExamPhase.exam && tile.end_time !== null
      ? t('console.proctor.timeLeft', { time: remaining(tile.end_time, now) })
      : t(`console.proctor.phase.${tile.phase}`);
  return (
    <button
      type="button"
      className="proctor-tile"
      onClick={onOpen}
      data-testid={`proctor-tile-${tile.attempt_id}`}
      style={{
        // A native button (focusable, Enter and Space open it, the browser's focus ring) without its look.
        cursor: 'pointer',
        display: 'block',
        width: '100%',
        padding: 0,
        textAlign: 'start',
        font: 'inherit',
        color: 'inherit',
        borderRadius: 8,
        border: `1px solid ${tile.open_flags > 0 ? '#ff7875' : '#d9d9d9'}`,
        background: '#fff',
        overflow: 'hidden',
      }}
    >
      <div style={{ aspectRatio: '16 / 9', background: '#1f1f1f', display: 'grid', placeItems: 'center' }}>
        {tile.picture_url ? (
          <img
            src={tile.picture_url}
            alt={t('console.proctor.pictureOf', { name: tile.name })}
            style={{ width: '100%', height: '100%', objectFit: 'cover' }}
          />
        ) : (
          <UserOutlined aria-hidden style={{ fontSize: 40, color: '#8c8c8c' }} />
        )}
      </div>
      <div style={{ padding: '8px 12px', display: 'grid', gap: 4 }}>
        <Space style={{ justifyContent: 'space-between', width: '100%' }}>
          <Badge
            status={tile.online ? 'success' : 'default'}
            text={<Typography.Text strong>{tile.name}</Typography.Text>}
          />
          <Tag color={tile.risk_count > 0 ? 'red' : 'default'} data-testid="tile-risk-count">
            {t('console.proctor.risks', { n: tile.risk_count })}
          </Tag>
        </Space>
        <Typography.Text type="secondary" data-testid="tile-phase">
          {phase}
        </Typography.Text>
        <Space size="small" wrap>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {tile.online ? t('console.proctor.online') : t('console.proctor.offline')}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <MobileOutlined aria-hidden />{' '}
            {tile.mobileDeviceStatus === 1 ? t('console.proctor.phoneOn') : t('console.proctor.phoneOff')}
          </Typography.Text>
          {tile.open_flags > 0 && (
            <Typography.Text type="danger" style={{ fontSize: 12 }}>
              {t('console.proctor.openFlagsN', { n: tile.open_flags })}
            </Typography.Text>
          )}
        </Space>
      </div>
    </button>
  );
}
