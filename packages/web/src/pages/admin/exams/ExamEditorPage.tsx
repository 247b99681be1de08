import type { EditorExamDetail } from '@examhall/contract';
import { Badge, Breadcrumb, Card, Skeleton, Space, Tabs } from 'antd';
import { Link, useParams, useSearchParams } from 'react-router';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { Forbidden, LoadError } from '../shared/PageTitle.js';
import { BasicsPanel } from './BasicsPanel.js';
import { countUnder } from './draft.js';
import { EditorHeader } from './EditorHeader.js';
import { ExamCandidatesPanel } from './ExamCandidatesPanel.js';
import { InvitationsPanel } from './InvitationsPanel.js';
import { LivePanel } from './LivePanel.js';
import { OutcomePanel } from './OutcomePanel.js';
import { useExam } from './queries.js';
import { SaveProblems } from './SaveProblems.js';
import { SchedulePanel } from './SchedulePanel.js';
import { SectionsPanel } from './SectionsPanel.js';
import { SettingsPanel } from './SettingsPanel.js';
import { StaffPanel } from './StaffPanel.js';
import { useSaveShortcut, useUnsavedGuard } from './useEditorGuards.js';
import { useDraftEditor } from './useDraftEditor.js';
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
  settings: ['settings', 'shuffle_questions', 'shuffle_options', 'id_photo_required', 'seb'],
  outcome: ['pledge', 'passing', 'show_score', 'show_explanations', 'positions'],
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
        {/* Ten tabs: with antd's 32 px between them the English ones overflow into a menu at 1280 px. */}
        <Tabs
          tabBarGutter={20}
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
              children: <SettingsPanel {...panel} examId={detail.id} />,
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
