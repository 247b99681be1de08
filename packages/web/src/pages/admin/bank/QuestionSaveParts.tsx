import type { BankQuestionView } from '@examhall/contract';
import { Alert, Button, Space, Typography } from 'antd';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { errorWithDetail } from '../shared/errorDetail.js';

/** A newer revision was saved meanwhile: who and when, and the choice to load it or keep this one. */
export function ConflictAlert(p: {
  latest: BankQuestionView;
  saving: boolean;
  onLoad: () => void;
  onKeep: () => void;
}) {
  const { t } = useI18n();
  return (
    <Alert
      type="warning"
      showIcon
      role="alert"
      data-testid="question-conflict"
      title={t('console.bank.conflictTitle')}
      description={
        <Space orientation="vertical">
          <span>
            {t('console.bank.conflictBody', { name: p.latest.editor.name, time: serverTime(p.latest.updated_at) })}
          </span>
          <Space wrap>
            <Button onClick={p.onLoad} data-testid="question-conflict-load">
              {t('console.bank.conflictLoad')}
            </Button>
            <Button danger loading={p.saving} onClick={p.onKeep} data-testid="question-conflict-keep">
              {t('console.bank.conflictKeep')}
            </Button>
          </Space>
        </Space>
      }
    />
  );
}

/** Save and close, kept in view at the drawer's foot, with whether changes wait. */
export function SaveBar(p: {
  creating: boolean;
  saving: boolean;
  unsaved: boolean;
  onSave: () => void;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return (
    <Space
      style={{
        position: 'sticky',
        bottom: 0,
        background: 'var(--ant-color-bg-elevated, #fff)',
        padding: '12px 0',
        width: '100%',
      }}
    >
      <Button type="primary" loading={p.saving} onClick={p.onSave} data-testid="question-save">
        {p.creating ? t('console.bank.createQuestion') : t('console.common.save')}
      </Button>
      <Button onClick={p.onClose} data-testid="question-close">
        {t('console.common.close')}
      </Button>
      <Typography.Text type="secondary">
        {p.unsaved ? t('console.bank.unsaved') : t('console.bank.saveShortcut')}
      </Typography.Text>
    </Space>
  );
}

/** Why the save failed, as the server said. */
export function SaveError({ error }: { error: unknown }) {
  const { text, detail } = errorWithDetail(error);
  return (
    <Alert type="error" showIcon role="alert" title={text} description={detail} data-testid="question-save-error" />
  );
}
