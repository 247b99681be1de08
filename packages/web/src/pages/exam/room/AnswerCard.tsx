import type { AnswerState } from '@examhall/contract';
import { groupBySection, keyOf, type CardItem } from '../../../exam/card.js';
import type { SaveState } from '../../../exam/outbox.js';
import { useI18n, type MessageKey } from '../../../i18n/index.js';
import { Button } from '../../../ui/Button.js';
import { Paragraph, Text, Title } from '../../../ui/Typography.js';

const SAVE_KEYS: Record<SaveState, MessageKey> = {
  saved: 'exam.legend.saved',
  saving: 'exam.legend.saving',
  unsaved: 'exam.legend.unsaved',
};
const STATE_KEYS: Record<AnswerState, MessageKey> = {
  answered: 'exam.legend.answered',
  partial: 'exam.legend.partial',
  unanswered: 'exam.legend.unanswered',
};
/** A mark inside the cell, so the states differ by shape as well as colour. */
const STATE_MARKS: Record<AnswerState, string> = { answered: '✓', partial: '◐', unanswered: '' };
const SAVE_MARKS: Record<SaveState, string> = { saved: '', saving: '…', unsaved: '!' };

/** What the card needs to know of each item. */
export interface CellStatus {
  state: AnswerState;
  save: SaveState;
  marked: boolean;
}

/** The answer card: a tab per section, then every question by number with its state, and the legend. */
export function AnswerCard(p: {
  items: readonly CardItem[];
  index: number;
  statusOf: (item: CardItem) => CellStatus;
  go: (to: number) => void;
}) {
  const { t } = useI18n();
  const groups = groupBySection(p.items);
  const currentSection = p.items[p.index]?.section;
  return (
    <aside className="answer-card" aria-labelledby="card-title">
      <Title level={2} style={{ fontSize: 16 }} id="card-title">
        {t('exam.card')}
      </Title>
      <nav aria-label={t('exam.sectionTabs')} className="section-tabs" data-testid="section-tabs">
        {groups.map((g) => (
          <Button
            key={g.first}
            size="small"
            type={currentSection === g.section ? 'primary' : 'default'}
            aria-current={currentSection === g.section ? 'true' : undefined}
            onClick={() => p.go(g.first)}
            data-testid="section-tab"
            data-section={g.section}
          >
            {t('exam.sectionTab', { name: t(`section.${g.section}`), n: g.indexes.length })}
          </Button>
        ))}
      </nav>
      {groups.map((g) => (
        <section
          key={g.first}
          aria-label={t(`section.${g.section}`)}
          data-testid="card-section"
          data-section={g.section}
        >
          <Text strong>{t(`section.${g.section}`)}</Text>
          <ol className="card-grid">
            {g.indexes.map((i) => (
              <li key={keyOf(p.items[i]!)}>
                <CardCell
                  item={p.items[i]!}
                  n={i + 1}
                  current={i === p.index}
                  status={p.statusOf(p.items[i]!)}
                  onGo={() => p.go(i)}
                />
              </li>
            ))}
          </ol>
        </section>
      ))}
      <CardLegend />
      <Paragraph type="secondary" style={{ marginTop: 12 }} data-testid="shortcuts">
        {t('exam.shortcuts')}
      </Paragraph>
    </aside>
  );
}

/** One question on the card. */
function CardCell(p: { item: CardItem; n: number; current: boolean; status: CellStatus; onGo: () => void }) {
  const { t } = useI18n();
  const { state, save, marked } = p.status;
  const label = t('exam.cardItem', { n: p.n, answered: t(STATE_KEYS[state]), save: t(SAVE_KEYS[save]) });
  return (
    <button
      type="button"
      className={`card-cell state-${state} save-${save} ${marked ? 'is-marked' : ''} ${p.current ? 'is-current' : ''}`}
      aria-current={p.current ? 'step' : undefined}
      aria-label={marked ? `${label}, ${t('exam.legend.marked')}` : label}
      onClick={p.onGo}
      data-testid="card-item"
      data-kind={p.item.kind}
      data-id={p.item.id}
      data-n={p.n}
      data-answered={state === 'unanswered' ? '0' : '1'}
      data-state={state}
      data-marked={marked ? '1' : '0'}
      data-save={save}
    >
      {p.n}
      <span className="state-mark" aria-hidden>
        {STATE_MARKS[state]}
      </span>
      <span className="save-mark" aria-hidden>
        {SAVE_MARKS[save]}
      </span>
      {marked && (
        <span className="review-mark" aria-hidden>
          ⚑
        </span>
      )}
    </button>
  );
}

/** What the cells' fills and marks mean. */
function CardLegend() {
  const { t } = useI18n();
  const entries: { className: string; mark?: [string, string]; key: MessageKey }[] = [
    { className: 'state-answered', mark: ['state-mark', '✓'], key: 'exam.legend.answered' },
    { className: 'state-partial', mark: ['state-mark', '◐'], key: 'exam.legend.partial' },
    { className: 'state-unanswered', key: 'exam.legend.unanswered' },
    { className: 'is-marked', mark: ['review-mark', '⚑'], key: 'exam.legend.marked' },
    { className: 'save-saving', mark: ['save-mark', '…'], key: 'exam.legend.saving' },
    { className: 'save-unsaved', mark: ['save-mark', '!'], key: 'exam.legend.unsaved' },
  ];
  return (
    <ul className="card-legend" aria-label={t('exam.legend')}>
      {entries.map((e) => (
        <li key={e.key}>
          <span className={`card-cell legend-cell ${e.className}`} aria-hidden>
            {e.mark && <span className={e.mark[0]}>{e.mark[1]}</span>}
          </span>{' '}
          {t(e.key)}
        </li>
      ))}
    </ul>
  );
}
