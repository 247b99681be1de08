import { CopyOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import type { EditorExamDetail } from '@examhall/contract';
import { App, Button, Flex, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { ExportMenu } from '../bank/imports/ExportMenu.js';
import { examTotals } from './draft.js';
import { ArchiveButton, CopyExamModal } from './ExamActions.js';
import { STATUS_COLOR } from './labels.js';
import { PreviewButton } from './PreviewButton.js';
import type { DraftEditor } from './useDraftEditor.js';

/** The exam's name, state and version, and its actions: save, publish, preview, copy, archive. */
export function EditorHeader({
  detail,
  editor,
  readOnly,
}: {
  detail: EditorExamDetail;
  editor: DraftEditor;
  readOnly: boolean;
}) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const me = useStaffMe();
  const [confirming, setConfirming] = useState(false);
  const [copying, setCopying] = useState(false);
  const current = detail.versions.find((v) => v.id === detail.published_version_id);
  const problems = editor.problems.size;
  const totals = examTotals(editor.draft.sections);
  const save = () =>
    editor.save().then(
      () => void message.success(t('console.exams.saved')),
      () => undefined,
    );
  const publish = () =>
    editor.publish().then(
      (res) => {
        setConfirming(false);
        void message.success(t('console.exams.publishedN', { n: res.version.number }));
      },
      () => setConfirming(false),
    );
  return (
    <Flex justify="space-between" align="flex-start" wrap gap={12}>
      <div>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
          {editor.draft.name || t('console.exams.untitled')}
        </Typography.Title>
        <Space size={4} wrap style={{ marginTop: 6 }}>
          <Tag color={STATUS_COLOR[detail.status]} data-testid="exam-status" data-status={detail.status}>
            {t(`console.exams.status.${detail.status}`)}
          </Tag>
          {current ? (
            <Tag>{t('console.exams.version', { n: current.number })}</Tag>
          ) : (
            <Tag>{t('console.exams.notPublished')}</Tag>
          )}
          {current && detail.draft_changed && <Tag color="orange">{t('console.exams.draftChanged')}</Tag>}
          {editor.dirty ? (
            <Tag color="gold" data-testid="exam-dirty">
              {t('console.exams.unsaved')}
            </Tag>
          ) : (
            <Typography.Text type="secondary">
              {t('console.exams.savedAt', { time: serverTime(detail.updated_at) })}
            </Typography.Text>
          )}
          <Typography.Text type="secondary" data-testid="exam-totals" data-points={totals.points}>
            · {t('console.exams.totals', { n: totals.questions, points: totals.points })}
          </Typography.Text>
          {current && can(me.data, 'grade.read') && (
            <Link to={`/admin/analysis/${detail.id}`} data-testid="exam-analysis-link">
              · {t('analysis.link')}
            </Link>
          )}
        </Space>
      </div>
      {!readOnly ? (
        <Space wrap>
          <Button
            icon={<SaveOutlined aria-hidden />}
            type={editor.dirty ? 'primary' : 'default'}
            disabled={!editor.dirty || problems > 0}
            loading={editor.saving && !editor.publishing}
            onClick={() => void save()}
            title={t('console.exams.saveShortcut')}
            data-testid="exam-save"
          >
            {t('console.exams.save')}
          </Button>
          <Button
            icon={<SendOutlined aria-hidden />}
            disabled={problems > 0 || (!detail.draft_changed && !editor.dirty)}
            onClick={() => setConfirming(true)}
            data-testid="exam-publish"
          >
            {t('console.exams.publish')}
          </Button>
          <PreviewButton examId={detail.id} editor={editor} disabled={problems > 0} />
          <ExportMenu
            source={detail.published_version_id !== null ? { examId: detail.id } : null}
            testId="exam-export"
          />
          <Button icon={<CopyOutlined aria-hidden />} onClick={() => setCopying(true)}>
            {t('console.exams.copy')}
          </Button>
          <ArchiveButton exam={{ id: detail.id, name: editor.draft.name, status: detail.status }} size="middle" />
        </Space>
      ) : (
        detail.status === 'archived' && (
          <ArchiveButton exam={{ id: detail.id, name: editor.draft.name, status: detail.status }} size="middle" />
        )
      )}
      <Modal
        open={confirming}
        title={t('console.exams.publishTitle', { n: (detail.versions[0]?.number ?? 0) + 1 })}
        okText={t('console.exams.publish')}
        cancelText={t('console.common.cancel')}
        okButtonProps={{ loading: editor.publishing, 'data-testid': 'exam-publish-confirm' }}
        onOk={() => void publish()}
        onCancel={() => setConfirming(false)}
      >
        <Typography.Paragraph>{t('console.exams.publishBody')}</Typography.Paragraph>
        {editor.dirty && (
          <Typography.Paragraph type="secondary">{t('console.exams.publishSavesFirst')}</Typography.Paragraph>
        )}
      </Modal>
      <CopyExamModal
        exam={copying ? { id: detail.id, name: editor.draft.name } : null}
        onClose={() => setCopying(false)}
      />
    </Flex>
  );
}
