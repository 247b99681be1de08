import { SIMILARITY_SORTS, SIMILARITY_STATUSES, type SimilarityPairsQuery } from '@examhall/contract';
import { Card, Empty, Select, Space, Typography } from 'antd';
import { InputNumber } from '../../../../shell/InputNumber.js';
import { useI18n } from '../../../../i18n/index.js';
import { serverTime } from '../../../../shell/serverTime.js';
import { can, useStaffMe } from '../../../../session/staff.js';
import { useDocumentTitle } from '../../../../shell/useDocumentTitle.js';
import { intParam, textParam } from '../../shared/listParams.js';
import { Forbidden, LoadError, PageTitle } from '../../shared/PageTitle.js';
import { useListState } from '../../shared/useListState.js';
import { GroupsCard } from './GroupsCard.js';
import { PairDrawer } from './PairDrawer.js';
import { PairsTable } from './PairsTable.js';
import { Pickers } from './Pickers.js';
import { useSimilarityPairs, useSimilarityQuestions } from './queries.js';

/** Default of the minimum score filter: pairs worth a look. */
const DEFAULT_MIN = 0.5;

/** The pair list's filters: decision and minimum score, kept in the address. */
function Filters(props: {
  status: string | undefined;
  minScore: number;
  set: (patch: Record<string, string | number | undefined>) => void;
}) {
  const { t } = useI18n();
  return (
    <Space wrap style={{ marginBottom: 12 }}>
      <Select
        value={props.status ?? ''}
        onChange={(v) => props.set({ status: v || undefined })}
        style={{ width: 150 }}
        aria-label={t('sim.col.status')}
        options={[
          { value: '', label: t('sim.status.any') },
          ...SIMILARITY_STATUSES.map((s) => ({ value: s, label: t(`sim.status.${s}`) })),
        ]}
      />
      <Space>
        <Typography.Text>{t('sim.minScore')}</Typography.Text>
        <InputNumber
          min={0}
          max={1}
          step={0.1}
          value={props.minScore}
          onChange={(v) => props.set({ min: v ?? undefined })}
          aria-label={t('sim.minScore')}
        />
      </Space>
    </Space>
  );
}

/** Code similarity of one programming question: pickers, the run, groups, the ranked pairs and one pair's view. */
export default function SimilarityPage() {
  const { t } = useI18n();
  useDocumentTitle(t('sim.title'));
  const me = useStaffMe();
  const { params, paging, setFilters, table } = useListState(SIMILARITY_SORTS);
  const examId = intParam(params, 'exam');
  const questionId = intParam(params, 'question');
  const pairId = intParam(params, 'pair');
  const status = SIMILARITY_STATUSES.find((s) => s === textParam(params, 'status'));
  const min = Number(textParam(params, 'min') ?? DEFAULT_MIN);
  const minScore = Number.isFinite(min) && min >= 0 && min <= 1 ? min : DEFAULT_MIN;
  const questions = useSimilarityQuestions(examId);
  const question = questions.data?.list.find((q) => q.question_id === questionId);
  const query: SimilarityPairsQuery | null =
    examId !== undefined && question && question.computed_at !== null
      ? {
          exam_id: examId,
          question_id: question.question_id,
          min_score: minScore,
          page: paging.page,
          page_size: paging.page_size,
          ...(status ? { status } : {}),
          ...(paging.sort ? { sort: paging.sort } : {}),
          ...(paging.order ? { order: paging.order } : {}),
        }
      : null;
  const pairs = useSimilarityPairs(query);
  if (me.data && !can(me.data, 'grade.read')) return <Forbidden />;
  const run = pairs.data?.run;
  let empty: string | null = null;
  if (examId === undefined) empty = t('sim.empty.noExam');
  else if (questions.data && questions.data.list.length === 0) empty = t('sim.empty.noQuestion');
  else if (question && question.computed_at === null) empty = t('sim.empty.notRun');
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <PageTitle title={t('sim.title')} description={t('sim.description')} />
      <Card>
        <Pickers
          examId={examId}
          questionId={questionId}
          questions={questions.data?.list ?? []}
          canRun={can(me.data, 'grade.score')}
          onPick={({ exam, question: q }) => setFilters({ ...(exam !== undefined ? { exam } : {}), question: q })}
        />
        <LoadError error={questions.error ?? pairs.error} />
        {run && (
          <Typography.Paragraph type="secondary" data-testid="similarity-run-info">
            {t('sim.computedAt', { n: run.submissions, at: serverTime(run.computed_at) })}
          </Typography.Paragraph>
        )}
        {empty !== null && <Empty description={empty} data-testid="similarity-empty" />}
        {query && (
          <>
            <Filters status={status} minScore={minScore} set={setFilters} />
            <PairsTable
              list={pairs}
              state={table}
              minScore={minScore}
              onOpen={(p) => setFilters({ pair: p.id, page: paging.page })}
            />
          </>
        )}
      </Card>
      {run && <GroupsCard groups={run.groups} />}
      {examId !== undefined && (
        <PairDrawer
          examId={examId}
          pairId={pairId}
          canDecide={can(me.data, 'grade.score')}
          onClose={() => setFilters({ pair: undefined, page: paging.page })}
        />
      )}
    </Space>
  );
}
