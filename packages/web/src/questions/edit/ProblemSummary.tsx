import { Alert, Button } from 'antd';
import { useI18n } from '../../i18n/index.js';
import { fieldName, type Problem } from '../problems.js';
import { useText } from './FieldProblems.js';

/**
 * Every problem shown so far, each with the field it is at ("Sub-question 2 · Right answer: Mark the right
 * answer"), and how many more wait in fields the author has not reached yet.
 */
export function ProblemSummary({
  shown,
  total,
  subIndex,
  onShowAll,
}: {
  shown: readonly Problem[];
  total: number;
  /** Position of a sub-question by its id, for the names. */
  subIndex: (id: string) => number;
  onShowAll: () => void;
}) {
  const { t } = useI18n();
  const say = useText();
  if (total === 0) {
    return (
      <Alert type="success" showIcon title={t('qedit.problemsNone')} data-testid="question-problems" data-count={0} />
    );
  }
  const pending = total - shown.length;
  return (
    <Alert
      type={shown.length > 0 ? 'error' : 'info'}
      showIcon
      data-testid="question-problems"
      data-count={total}
      title={shown.length > 0 ? t('qedit.problemsTitle', { n: total }) : t('qedit.problemsPending', { n: pending })}
      description={
        <>
          {shown.length > 0 && (
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {shown.map((p, i) => (
                <li key={i}>
                  {fieldName(p.path, subIndex).map(say).join(' · ')}: {say(p.text)}
                </li>
              ))}
            </ul>
          )}
          {shown.length > 0 && pending > 0 && <div>{t('qedit.problemsPending', { n: pending })}</div>}
        </>
      }
      action={
        pending > 0 ? (
          <Button size="small" onClick={onShowAll} data-testid="show-all-problems">
            {t('qedit.showAllProblems')}
          </Button>
        ) : undefined
      }
    />
  );
}
