import { CaretRightOutlined, CloudUploadOutlined } from '@ant-design/icons';
import { KINDS } from '@examhall/contract';
import { Alert, Button, Flex, Input, Typography } from 'antd';
import { useId, type KeyboardEvent } from 'react';
import { useI18n } from '../../i18n/index.js';
import { JudgeOutcome } from './JudgeOutcome.js';
import type { JudgePanelProps, useJudge } from './useJudge.js';

export function JudgePanel(props: JudgePanelProps & { judge: ReturnType<typeof useJudge> }) {
  const { t } = useI18n();
  const { subject, judge } = props;
  const { run, hasSamples, customOpen, setCustomOpen, input, setInput, problem, busy, start } = judge;
  const inputId = useId();
  const shortcutId = useId();
  // Only a judged kind takes a submit; the others run their samples alone.
  const canSubmit = KINDS.judged(subject.type);

  const onInputKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      start('custom');
    }
  };

  return (
    <section className="judge-panel" aria-label={t('judge.panel')} data-testid="judge-panel">
      <Flex wrap gap={8} align="center">
        {hasSamples && (
          <Button
            icon={<CaretRightOutlined aria-hidden />}
            onClick={() => start('samples')}
            disabled={busy}
            aria-describedby={shortcutId}
            data-testid="judge-run"
          >
            {t('judge.run')}
          </Button>
        )}
        <Button
          type={customOpen ? 'dashed' : 'default'}
          onClick={() => setCustomOpen(!customOpen)}
          aria-expanded={customOpen}
          aria-controls={inputId}
          data-testid="judge-custom-toggle"
        >
          {t('judge.customToggle')}
        </Button>
        {canSubmit && (
          <Button
            type="primary"
            icon={<CloudUploadOutlined aria-hidden />}
            onClick={() => start('submit')}
            disabled={busy}
            data-testid="judge-submit"
          >
            {t('judge.submit')}
          </Button>
        )}
        <Typography.Text type="secondary" id={shortcutId} data-testid="judge-shortcut">
          {hasSamples ? t('judge.runShortcut') : t('judge.runCustomShortcut')}
        </Typography.Text>
      </Flex>
      <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
        {canSubmit ? t('judge.submitNote') : t('judge.qaNote')}
      </Typography.Paragraph>
      {customOpen && (
        <div className="judge-custom">
          <label htmlFor={inputId}>{t('judge.customLabel')}</label>
          <Input.TextArea
            id={inputId}
            value={input}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={onInputKey}
            autoSize={{ minRows: 2, maxRows: 8 }}
            spellCheck={false}
            className="judge-input"
            data-testid="judge-input"
          />
          <Button onClick={() => start('custom')} disabled={busy} data-testid="judge-run-custom">
            {t('judge.runCustom')}
          </Button>
        </div>
      )}
      {problem && <Alert type="warning" showIcon role="alert" title={t(`judge.${problem}`)} style={{ marginTop: 8 }} />}
      <div aria-live="polite" className="judge-outcome">
        {run && <JudgeOutcome run={run} samples={subject.samples ?? []} />}
      </div>
    </section>
  );
}
