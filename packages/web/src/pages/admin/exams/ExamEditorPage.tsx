import { CopyOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import { api, type EditorExamDetail } from '@examhall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Badge, Breadcrumb, Button, Card, Flex, Modal, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useBlocker } from '../../../shell/appRouter.js';
import { serverTime } from '../../../shell/serverTime.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { errorWithDetail } from '../shared/errorDetail.js';
import { Forbidden, LoadError } from '../shared/PageTitle.js';
import { BasicsPanel } from './BasicsPanel.js';
import { countUnder, examTotals } from './draft.js';
import { ArchiveButton, CopyExamModal } from './ExamsPage.js';
import { ExamCandidatesPanel } from './ExamCandidatesPanel.js';
import { InvitationsPanel } from './InvitationsPanel.js';
import { STATUS_COLOR } from './labels.js';
import { LivePanel } from './LivePanel.js';
import { OutcomePanel } from './OutcomePanel.js';
import { PreviewButton } from './PreviewButton.js';
import { ExportMenu } from '../bank/imports/ExportMenu.js';
import { examKey, useExam } from './queries.js';
import { SchedulePanel } from './SchedulePanel.js';
import { SectionsPanel } from './SectionsPanel.js';
import { SettingsPanel } from './SettingsPanel.js';
import { StaffPanel } from './StaffPanel.js';
import { useDraftEditor, type DraftEditor } from './useDraftEditor.js';
import { VersionsPanel } from './VersionsPanel.js';

const TABS = [
  'basics',
  'sections',
  'settings',
  'outcome',
  'versions',
  'live',
  'invite',
  'schedule',
  'candidates',
  'staff',
] as const;
type TabKey = (typeof TABS)[number];

/** Which draft fields each tab edits, for the count of problems on its label. */
const TAB_FIELDS: Partial<Record<TabKey, string[]>> = {
  basics: ['name', 'description', 'mode', 'time_minutes', 'start_at', 'end_at'],
  sections: ['sections'],
  settings: ['settings', 'shuffle_questions', 'shuffle_options', 'id_photo_required'],
  outcome: ['pledge', 'passing', 'show_score', 'positions'],
};

/** The exam editor: the draft in tabs, saved and published with its revision, plus versions, live changes, invitations and staff. */
export default function ExamEditorPage() {
  const { t } = useI18n();
  const me = useStaffMe();
  const examId = Number(useParams().examId);
  const exam = useExam(examId);
  useDocumentTitle(exam.data ? exam.data.draft.name : t('admin.menu.exams'));
  if (me.data && !can(me.data, 'exam.read')) return <Forbidden />;
  if (exam.isError) return <LoadError error={exam.error} />;
  if (!exam.data) return <Skeleton active />;
  return <Editor key={exam.data.id} detail={exam.data} />;
}

function Editor({ detail }: { detail: EditorExamDetail }) {
  const { t } = useI18n();
  const me = useStaffMe();
  const editor = useDraftEditor(detail);
  const readOnly = !can(me.data, 'exam.manage') || detail.status === 'archived';
  const [params, setParams] = useSearchParams();
  const tab: TabKey = TABS.find((k) => k === params.get('tab')) ?? 'basics';
  useUnsavedGuard(editor.dirty);
  useSaveShortcut(editor, readOnly);

  const label = (key: TabKey, text: string) => {
    const n = countUnder(editor.problems, TAB_FIELDS[key] ?? []);
    return n > 0 ? (
      <Badge count={n} size="small" offset={[8, -2]} title={t('console.exams.problemsInTab', { n })}>
        {text}
      </Badge>
    ) : (
      text
    );
  };
  const panel = { editor, readOnly };
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="exam-editor">
      <Breadcrumb
        items={[{ title: <Link to="/admin/exams">{t('admin.menu.exams')}</Link> }, { title: editor.draft.name || '…' }]}
      />
      <EditorHeader detail={detail} editor={editor} readOnly={readOnly} />
      <SaveProblems detail={detail} editor={editor} />
      <Card>
        <Tabs
          activeKey={tab}
          onChange={(key) =>
            setParams(
              (p) => {
                const next = new URLSearchParams(p);
                next.set('tab', key);
                return next;
              },
              { replace: true },
            )
          }
          items={[
            {
              key: 'basics',
              label: label('basics', t('console.exams.tab.basics')),
              children: <BasicsPanel {...panel} />,
            },
            {
              key: 'sections',
              label: label('sections', t('console.exams.tab.sections')),
              children: <SectionsPanel {...panel} />,
            },
            {
              key: 'settings',
              label: label('settings', t('console.exams.tab.settings')),
              children: <SettingsPanel {...panel} />,
            },
            {
              key: 'outcome',
              label: label('outcome', t('console.exams.tab.outcome')),
              children: <OutcomePanel {...panel} />,
            },
            { key: 'versions', label: t('console.exams.tab.versions'), children: <VersionsPanel detail={detail} /> },
            {
              key: 'live',
              label: t('console.exams.tab.live'),
              children: <LivePanel detail={detail} readOnly={readOnly} />,
            },
            {
              key: 'invite',
              label: t('console.exams.tab.invite'),
              children: <InvitationsPanel detail={detail} readOnly={readOnly} />,
            },
            {
              key: 'schedule',
              label: t('console.exams.tab.schedule'),
              children: <SchedulePanel examId={detail.id} readOnly={readOnly} />,
            },
            {
              key: 'candidates',
              label: t('exam.cand.tab'),
              children: <ExamCandidatesPanel examId={detail.id} />,
            },
            {
              key: 'staff',
              label: t('console.exams.tab.staff'),
              children: <StaffPanel examId={detail.id} readOnly={readOnly} />,
            },
          ]}
        />
      </Card>
    </Space>
  );
}

/** The exam's name, state and version, and its actions: save, publish, preview, copy, archive. */
function EditorHeader({
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
          <Typography.Text type="secondary">
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

/** Why the last save or publish failed: a conflict with someone else's save (and what to do), or the server's reason. */
function SaveProblems({ detail, editor }: { detail: EditorExamDetail; editor: DraftEditor }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [loading, setLoading] = useState(false);
  const latest = async () => {
    setLoading(true);
    try {
      const fresh = await request(api.examEditorDetail, { query: { exam_id: detail.id } });
      queryClient.setQueryData(examKey(detail.id), fresh);
      return fresh;
    } finally {
      setLoading(false);
    }
  };
  if (editor.conflict) {
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="exam-conflict"
        title={t('console.exams.conflictTitle')}
        description={
          <Space orientation="vertical">
            <span>{t('console.exams.conflictBody')}</span>
            <Space wrap>
              <Button loading={loading} onClick={() => void latest().then((fresh) => editor.reset(fresh))}>
                {t('console.exams.conflictLoad')}
              </Button>
              <Button
                danger
                loading={loading}
                onClick={() => void latest().then((fresh) => editor.adoptRevision(fresh.revision))}
              >
                {t('console.exams.conflictKeep')}
              </Button>
            </Space>
          </Space>
        }
      />
    );
  }
  const failure = editor.publishError ?? editor.saveError;
  if (!failure) return null;
  const { text, detail: why } = errorWithDetail(failure);
  return <Alert type="error" showIcon role="alert" data-testid="exam-save-error" title={text} description={why} />;
}

/** Asks before leaving the editor (in the app or the browser) with unsaved changes. */
function useUnsavedGuard(dirty: boolean) {
  const { t } = useI18n();
  const { modal } = App.useApp();
  const blocker = useBlocker(
    useCallback(
      ({
        currentLocation,
        nextLocation,
      }: {
        currentLocation: { pathname: string };
        nextLocation: { pathname: string };
      }) => dirty && currentLocation.pathname !== nextLocation.pathname,
      [dirty],
    ),
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title: t('console.exams.leaveTitle'),
      content: t('console.exams.leaveBody'),
      okText: t('console.exams.leave'),
      okButtonProps: { danger: true },
      cancelText: t('console.exams.stay'),
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, t]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

/** Ctrl+S (⌘S) saves the draft instead of saving the web page. */
function useSaveShortcut(editor: DraftEditor, readOnly: boolean) {
  const { dirty, problems, save } = editor;
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        if (dirty && problems.size === 0) save().catch(() => undefined);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dirty, problems, save, readOnly]);
}
