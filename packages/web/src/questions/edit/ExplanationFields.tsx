import { feedbackTargets } from '@examhall/contract';
import { Divider, Typography } from 'antd';
import { useI18n } from '../../i18n/index.js';
import { Form } from '../../shell/Form.js';
import type { DraftMeta } from '../draftTypes.js';
import { RichText } from './RichText.js';
import type { EditorContext } from './types.js';

/** What an option's feedback is called: 'Option A', or 'Sub-question 2, option A' for a sub-question's ('2.A'). */
export function useFeedbackLabel(): (target: string) => string {
  const { t } = useI18n();
  return (target) => {
    const [sub, option] = target.includes('.') ? target.split('.') : [null, target];
    return sub === null
      ? t('qedit.feedbackOption', { id: option! })
      : t('qedit.feedbackSubOption', { n: sub, id: option! });
  };
}

/**
 * The explanation (解析) candidates read after submitting, where their exam allows it, and the feedback shown
 * beside each option of the question (and of its sub-questions).
 */
export function ExplanationFields({
  content,
  value,
  onChange,
  ctx,
}: {
  /** The question's content, whose options the feedback is for. */
  content: unknown;
  value: DraftMeta['explanation'];
  onChange: (next: DraftMeta['explanation']) => void;
  ctx: EditorContext;
}) {
  const { t } = useI18n();
  const label = useFeedbackLabel();
  const targets = feedbackTargets(content);
  return (
    <div data-testid="explanation-fields">
      <Divider titlePlacement="start">{t('qedit.explanationTitle')}</Divider>
      <Typography.Paragraph type="secondary">{t('qedit.explanationHint')}</Typography.Paragraph>
      <Form.Item label={t('qedit.explanation')}>
        <RichText
          value={value.text}
          onChange={(text) => onChange({ ...value, text })}
          label={t('qedit.explanation')}
          testId="explanation-text"
          compact
          ctx={ctx}
        />
      </Form.Item>
      {targets.map((target) => (
        <Form.Item key={target} label={t('qedit.feedbackFor', { option: label(target) })}>
          <RichText
            value={value.options[target] ?? ''}
            onChange={(text) => onChange({ ...value, options: { ...value.options, [target]: text } })}
            label={t('qedit.feedbackFor', { option: label(target) })}
            testId={`feedback-${target}`}
            compact
            ctx={ctx}
          />
        </Form.Item>
      ))}
    </div>
  );
}
