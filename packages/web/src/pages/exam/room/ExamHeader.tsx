import { ExamMode, type AttemptView, type ExamDetail } from '@examhall/contract';
import { pendingCount, type OutboxSnapshot } from '../../../exam/outbox.js';
import { useI18n } from '../../../i18n/index.js';
import { LanguageSwitch } from '../../../shell/LanguageSwitch.js';
import { Alert } from '../../../ui/Alert.js';
import { Button } from '../../../ui/Button.js';
import { Flex } from '../../../ui/Flex.js';
import { Tag } from '../../../ui/Tag.js';
import { Text, Title } from '../../../ui/Typography.js';
import { Timer } from './Timer.js';

/** The exam's bar: its name, screen switches left, the save state beside the timer, and the submit button. */
export function ExamHeader(p: {
  detail: ExamDetail;
  attempt: AttemptView;
  cutsLeft: number;
  snapshot: OutboxSnapshot;
  submitting: boolean;
  onTimeUp: () => void;
  onSubmit: () => void;
}) {
  const { t } = useI18n();
  return (
    <header className="exam-header">
      <Flex align="center" gap={12} wrap style={{ minWidth: 0 }}>
        <Title level={1} className="exam-title" data-testid="exam-title">
          {p.detail.name}
        </Title>
        {p.detail.mode === ExamMode.simulate && (
          <Tag color="gold" data-testid="practice-badge">
            {t('exam.practiceBadge')}
          </Tag>
        )}
      </Flex>
      <Flex align="center" gap={16} wrap>
        <Tag color={p.cutsLeft > 0 ? 'default' : 'red'} data-testid="cuts-left" data-left={p.cutsLeft}>
          {t('risk.cutsLeft', { n: Math.max(0, p.cutsLeft) })}
        </Tag>
        <SaveSummary snapshot={p.snapshot} />
        <Timer endTime={p.attempt.end_time} onTimeUp={p.onTimeUp} />
        <LanguageSwitch />
        <Button type="primary" onClick={p.onSubmit} loading={p.submitting} data-testid="exam-submit">
          {t('exam.submit')}
        </Button>
      </Flex>
    </header>
  );
}

/** How many changes wait to reach the server, announced politely to screen readers. */
function SaveSummary({ snapshot }: { snapshot: OutboxSnapshot }) {
  const { t } = useI18n();
  const pending = pendingCount(snapshot);
  const text = !snapshot.online
    ? t('exam.savedHere', { n: pending })
    : pending > 0
      ? t('exam.pending', { n: pending })
      : t('exam.allSaved');
  return (
    <div className="exam-save" role="status" aria-live="polite" data-testid="save-status">
      <Text type={pending > 0 ? 'warning' : 'secondary'} data-testid="save-summary">
        {text}
      </Text>
    </div>
  );
}

/** Shown only on a narrow screen (CSS): the exam is meant for a computer. */
export function NarrowNotice() {
  const { t } = useI18n();
  return (
    <div className="narrow-notice" data-testid="narrow-notice">
      <Alert type="warning" title={t('exam.needsComputer')} />
    </div>
  );
}
