import type { SimilarityPairView } from '@examhall/contract';
import { Alert, Divider, Drawer, Flex, List, Typography } from 'antd';
import { useI18n } from '../../../../i18n/index.js';
import { LoadError } from '../../shared/PageTitle.js';
import { CodePane } from './CodePane.js';
import { DecisionForm } from './DecisionForm.js';
import { fragmentColour, fragmentLines } from './fragmentLines.js';
import { useSimilarityPair } from './queries.js';

/** Who a side is, as the page names them: their name, else their masked phone. */
export function sideName(side: SimilarityPairView['a']): string {
  return side.name || side.phone;
}

/** One pair side by side: both candidates' code with the matched fragments highlighted, and the decision. */
export function PairDrawer(props: {
  examId: number;
  pairId: number | undefined;
  canDecide: boolean;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const detail = useSimilarityPair(props.examId, props.pairId);
  const d = detail.data;
  return (
    <Drawer
      open={props.pairId !== undefined}
      onClose={props.onClose}
      size="90vw"
      title={d ? t('sim.drawer.title', { a: sideName(d.pair.a), b: sideName(d.pair.b) }) : t('common.loading')}
      destroyOnHidden
    >
      <LoadError error={detail.error} />
      {d && (
        <>
          <Alert
            type="info"
            showIcon
            title={t('sim.drawer.summary', { score: d.pair.score.toFixed(2), fragments: d.fragments.length })}
          />
          <Flex gap={16} style={{ marginTop: 16 }} wrap>
            <CodePane
              title={sideName(d.pair.a)}
              code={d.code_a}
              lines={fragmentLines(d.fragments, 'a')}
              testId="similarity-code-a"
            />
            <CodePane
              title={sideName(d.pair.b)}
              code={d.code_b}
              lines={fragmentLines(d.fragments, 'b')}
              testId="similarity-code-b"
            />
          </Flex>
          <List
            size="small"
            style={{ marginTop: 12 }}
            dataSource={d.fragments}
            renderItem={(f, i) => (
              <List.Item style={{ background: fragmentColour(i) }}>
                <Typography.Text>
                  {t('sim.fragment', {
                    n: i + 1,
                    a1: f.a.start_line,
                    a2: f.a.end_line,
                    b1: f.b.start_line,
                    b2: f.b.end_line,
                  })}
                </Typography.Text>
              </List.Item>
            )}
          />
          <Divider />
          <DecisionForm examId={props.examId} pair={d.pair} canDecide={props.canDecide} />
        </>
      )}
    </Drawer>
  );
}
