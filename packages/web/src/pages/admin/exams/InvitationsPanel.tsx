import type { EditorExamDetail } from '@examhall/contract';
import { Alert, Button, Divider, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { ImportDrawer } from '../candidates/ImportDrawer.js';
import { useInvalidateExams } from './queries.js';
import { BulkInvitePanel } from './BulkInvitePanel.js';
import { InvitePanel } from './InvitePanel.js';
import { SmsSettingsPanel } from './SmsSettingsPanel.js';
import { SmsTable } from './SmsTable.js';

/**
 * The exam's invitations: a few phones at once, many by paste or file (a job), the texts candidates get and
 * when, and every text sent with its delivery.
 */
export function InvitationsPanel({ detail, readOnly }: { detail: EditorExamDetail; readOnly: boolean }) {
  const { t } = useI18n();
  const exam = {
    id: detail.id,
    name: detail.draft.name,
    start_at: detail.draft.start_at,
    end_at: detail.draft.end_at,
  };
  return (
    <div data-testid="exam-invitations">
      {detail.published_version_id === null && (
        <Alert type="info" showIcon title={t('console.exams.inviteUnpublished')} style={{ marginBottom: 16 }} />
      )}
      <Section title={t('console.invitations.few')}>
        <InvitePanel examId={detail.id} readOnly={readOnly} />
      </Section>
      <Divider />
      <Section title={t('console.invitations.bulk')}>
        <BulkInvitePanel examId={detail.id} readOnly={readOnly} />
      </Section>
      <Divider />
      <Section title={t('console.invitations.fromList')}>
        <ListImport examId={detail.id} examName={detail.draft.name} readOnly={readOnly} />
      </Section>
      <Divider />
      <Section title={t('console.sms.settings')}>
        <SmsSettingsPanel exam={exam} readOnly={readOnly} />
      </Section>
      <Divider />
      <Section title={t('console.sms.texts')}>
        <SmsTable examId={detail.id} readOnly={readOnly} />
      </Section>
    </div>
  );
}

/** Opens the candidate import for this exam: the list's candidates are imported, then invited. */
function ListImport(props: { examId: number; examName: string; readOnly: boolean }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const invalidate = useInvalidateExams();
  return (
    <>
      <Typography.Paragraph type="secondary" style={{ maxWidth: 720 }}>
        {t('console.invitations.fromListHint')}
      </Typography.Paragraph>
      <Button disabled={props.readOnly} onClick={() => setOpen(true)} data-testid="invite-from-list">
        {t('console.invitations.fromListOpen')}
      </Button>
      <ImportDrawer
        open={open}
        onClose={() => {
          setOpen(false);
          invalidate();
        }}
        invite={{ examId: props.examId, examName: props.examName }}
      />
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <Typography.Title level={3} style={{ fontSize: 16, marginTop: 0 }}>
        {title}
      </Typography.Title>
      {children}
    </section>
  );
}
