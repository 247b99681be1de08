import { ExamPhase, type ProctorTile } from '@examhall/contract';
import { MobileOutlined, UserOutlined } from '@ant-design/icons';
import { Badge, Space, Tag, Typography } from 'antd';
import { useI18n } from '../../../i18n/index.js';
import { remaining } from './liveGrid.js';

/**
 * One candidate: picture, name, phase and time left, risk count, online state and, when the exam has the phone check,
 * the phone. Opens the attempt.
 */
export function GridTile({
  tile,
  now,
  phoneCheck,
  onOpen,
}: {
  tile: ProctorTile;
  now: number;
  phoneCheck: boolean;
  onOpen: () => void;
}) {
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
          {phoneCheck && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="tile-phone">
              <MobileOutlined aria-hidden />{' '}
              {tile.mobileDeviceStatus === 1 ? t('console.proctor.phoneOn') : t('console.proctor.phoneOff')}
            </Typography.Text>
          )}
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
