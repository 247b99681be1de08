import type { CardSummary } from '../../../exam/card.js';
import { useI18n, type MessageKey } from '../../../i18n/index.js';
import { Button } from '../../../ui/Button.js';
import { Flex } from '../../../ui/Flex.js';
import { Paragraph, Text } from '../../../ui/Typography.js';

/** The submit dialog's body: the count, then the questions not answered, partly answered and marked, each a jump. */
export function SubmitSummary({ summary, onJump }: { summary: CardSummary; onJump: (index: number) => void }) {
  const { t } = useI18n();
  const lists: { key: MessageKey; indexes: number[]; testId: string }[] = [
    { key: 'exam.submitList.unanswered', indexes: summary.unanswered, testId: 'submit-unanswered' },
    { key: 'exam.submitList.partial', indexes: summary.partial, testId: 'submit-partial' },
    { key: 'exam.submitList.marked', indexes: summary.marked, testId: 'submit-marked' },
  ];
  const open = lists.filter((l) => l.indexes.length > 0);
  return (
    <div data-testid="submit-summary">
      <Paragraph data-testid="submit-count">
        {t('exam.submitConfirmBody', { answered: summary.answered, total: summary.total })}
      </Paragraph>
      {open.length === 0 && <Paragraph>{t('exam.submitList.allDone')}</Paragraph>}
      {open.map((l) => (
        <div key={l.key} data-testid={l.testId}>
          <Text strong>{t(l.key, { n: l.indexes.length })}</Text>
          <Flex wrap gap={4} style={{ margin: '4px 0 8px' }}>
            {l.indexes.map((i) => (
              <Button
                key={i}
                size="small"
                aria-label={t('exam.question', { n: i + 1 })}
                onClick={() => onJump(i)}
                data-testid="submit-jump"
                data-n={i + 1}
              >
                {i + 1}
              </Button>
            ))}
          </Flex>
        </div>
      ))}
    </div>
  );
}
