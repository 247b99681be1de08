import {
  AudioOutlined,
  CameraOutlined,
  DesktopOutlined,
  EditOutlined,
  IdcardOutlined,
  MobileOutlined,
} from '@ant-design/icons';
import type { PrepareItem } from '@examhall/contract';
import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useI18n } from '../../../i18n/index.js';

const ICONS: Record<PrepareItem['item'], ReactNode> = {
  camera: <CameraOutlined aria-hidden />,
  microphone: <AudioOutlined aria-hidden />,
  screen: <DesktopOutlined aria-hidden />,
  phone: <MobileOutlined aria-hidden />,
  signature: <EditOutlined aria-hidden />,
  id_photo: <IdcardOutlined aria-hidden />,
};

/** What to have ready for the exam's device checks: an icon and a text each, optional ones marked. */
export function PrepareList({ items }: { items: PrepareItem[] }) {
  const { t } = useI18n();
  if (items.length === 0) return <Typography.Text type="secondary">{t('exams.prepare.none')}</Typography.Text>;
  return (
    <ul className="exam-prepare" data-testid="exam-prepare">
      {items.map((p) => (
        <li key={p.item} data-item={p.item}>
          <Tag icon={ICONS[p.item]} color={p.optional ? 'default' : 'blue'}>
            {t(`exams.prepare.${p.item}`)}
            {p.optional && ` (${t('exams.prepare.optional')})`}
          </Tag>
        </li>
      ))}
    </ul>
  );
}
