import type { BankItemFlag } from '@examhall/contract';
import { Alert, Tag, Tooltip } from 'antd';
import { useI18n } from '../../../i18n/index.js';
import { serverTime } from '../../../shell/serverTime.js';
import { figure } from '../analysis/figures.js';

/** One exam's flag in words: the exam, both indices, the attempts and when. */
function useFlagText() {
  const { t } = useI18n();
  return (f: BankItemFlag) =>
    t('analysis.bank.flagDetail', {
      exam: f.exam_name,
      itemRest: figure(f.item_rest),
      upperLower: figure(f.upper_lower),
      n: f.n,
      at: serverTime(f.flagged_at),
    });
}

/** The question list's mark on a question an exam's item analysis flagged, with the figures on hover. */
export function ItemFlagTag({ questionId, flags }: { questionId: number; flags: BankItemFlag[] }) {
  const { t } = useI18n();
  const text = useFlagText();
  if (flags.length === 0) return null;
  return (
    <Tooltip title={[t('analysis.bank.flagHint'), ...flags.map(text)].join(' ')}>
      <Tag color="volcano" data-testid={`bank-flag-${questionId}`}>
        {t('analysis.bank.flag')}
      </Tag>
    </Tooltip>
  );
}

/** The editor's warning on a flagged question: what was found in which exam, and what to check. */
export function ItemFlagAlert({ flags }: { flags: BankItemFlag[] }) {
  const { t } = useI18n();
  const text = useFlagText();
  if (flags.length === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      title={t('analysis.bank.flagTitle')}
      description={
        <>
          {flags.map((f) => (
            <div key={f.exam_id}>{text(f)}</div>
          ))}
          <div>{t('analysis.bank.flagHint')}</div>
        </>
      }
      data-testid="question-flag"
    />
  );
}
