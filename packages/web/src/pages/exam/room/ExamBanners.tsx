import { errorText } from '../../../api/client.js';
import { keyOf, type CardItem } from '../../../exam/card.js';
import { pendingCount, type OutboxSnapshot } from '../../../exam/outbox.js';
import { useI18n } from '../../../i18n/index.js';
import { CaptureStatus } from '../../../proctor/CaptureStatus.js';
import { DeviceReconnect } from '../../../proctor/DeviceReconnect.js';
import type { useRiskDetectors } from '../../../proctor/risks.js';
import { FullscreenPrompt, SwitchNotice, WarningDialog, type useWarnings } from '../../../proctor/warnings.js';
import { Alert } from '../../../ui/Alert.js';

/** Everything the exam page tells the candidate above the questions: network, proctoring, warnings and failures. */
export function ExamBanners(p: {
  examId: number;
  items: readonly CardItem[];
  snapshot: OutboxSnapshot;
  risks: ReturnType<typeof useRiskDetectors>;
  warnings: ReturnType<typeof useWarnings>;
  errors: (string | null)[];
  submitting: boolean;
  submitError: string | null;
}) {
  const { t } = useI18n();
  const { risks, snapshot } = p;
  const pending = pendingCount(snapshot);
  return (
    <div className="exam-status">
      {!snapshot.online ? (
        <Alert type="warning" title={t('exam.offline')} data-testid="net-banner" />
      ) : (
        snapshot.failures > 0 &&
        (snapshot.signedOut ? (
          <Alert type="warning" title={t('exam.signedOutWaiting', { n: pending })} data-testid="net-banner" />
        ) : (
          <Alert type="warning" title={t('exam.unstable', { n: pending })} data-testid="net-banner" />
        ))
      )}
      <SwitchNotice left={risks.state.switchNotice} onClose={risks.dismissSwitchNotice} />
      <FullscreenPrompt
        fullscreen={risks.state.fullscreen}
        left={risks.state.leftFullscreen}
        onEnter={risks.requestFullscreen}
      />
      {risks.state.accountChanged !== null && (
        <Alert type="error" title={t('risk.accountChanged')} data-testid="account-changed" />
      )}
      <CaptureStatus />
      <DeviceReconnect examId={p.examId} />
      <WarningDialog warnings={p.warnings.warnings} onAcknowledge={p.warnings.acknowledge} />
      {[...snapshot.rejected.values()]
        .filter((r) => !r.key.startsWith('risk:'))
        .map((r, i) => {
          const n = p.items.findIndex((it) => keyOf(it) === r.key) + 1;
          return <Alert key={i} type="error" title={t('exam.rejected', { n, msg: errorText(r.error) })} />;
        })}
      {p.errors.map((e, i) => e && <Alert key={`e${i}`} type="error" title={e} />)}
      {p.submitting && <Alert type="info" title={t('exam.submitting')} />}
      {p.submitError && <Alert type="error" title={p.submitError} data-testid="submit-error" />}
    </div>
  );
}
