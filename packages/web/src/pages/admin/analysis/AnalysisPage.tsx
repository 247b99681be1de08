import {
  ITEM_ANALYSIS_SORTS,
  type ItemAnalysisData,
  type ItemAnalysisQuery,
  enumOptions,
  SECTION_TEXTS,
} from '@examhall/contract';
import { Alert, Card, Checkbox, Empty, Select, Space, Typography } from 'antd';
import { Link, useParams } from 'react-router';
import { ApiError, errorText } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { useDocumentTitle } from '../../../shell/useDocumentTitle.js';
import { intParam, textParam, type ParamValue } from '../shared/listParams.js';
import { Forbidden, LoadError, PageTitle } from '../shared/PageTitle.js';
import { useListState } from '../shared/useListState.js';
import { ExamFigures } from './ExamFigures.js';
import { ItemTable } from './ItemTable.js';
import { JobProgress } from '../jobs/JobProgress.js';
import { useAnalysisJob, useItemAnalysis } from './queries.js';

const SECTIONS = ['linetest', 'major'] as const;

/** The version picker and the table's filters (flagged only, one section), kept in the address. */
function Filters(props: {
  data: ItemAnalysisData;
  flagged: boolean;
  section: (typeof SECTIONS)[number] | undefined;
  set: (patch: Record<string, ParamValue>) => void;
}) {
  const { t, lang } = useI18n();
  return (
    <Space wrap style={{ marginBottom: 12 }}>
      {props.data.versions.length > 1 && (
        <Select
          value={props.data.version_id ?? undefined}
          onChange={(v) => props.set({ version: v })}
          style={{ width: 220 }}
          aria-label={t('analysis.version')}
          data-testid="analysis-version"
          options={props.data.versions.map((v) => ({
            value: v.id,
            label: t('analysis.version.option', { n: v.number, attempts: v.attempts }),
          }))}
        />
      )}
      <Select
        value={props.section ?? ''}
        onChange={(v) => props.set({ section: v || undefined })}
        style={{ width: 160 }}
        aria-label={t('analysis.filter.section')}
        options={[
          { value: '', label: t('analysis.filter.section.all') },
          ...enumOptions(SECTION_TEXTS, SECTIONS, lang),
        ]}
      />
      <Checkbox
        checked={props.flagged}
        onChange={(e) => props.set({ flagged: e.target.checked ? 1 : undefined })}
        data-testid="analysis-flagged-only"
      >
        {t('analysis.filter.flagged')}
      </Checkbox>
    </Space>
  );
}

/** Every figure's definition in one place, as the column headers' help marks show them. */
function Definitions() {
  const { t } = useI18n();
  const items = [
    ['analysis.col.facility', 'analysis.def.facility'],
    ['analysis.col.sd', 'analysis.def.sd'],
    ['analysis.col.itemRest', 'analysis.def.itemRest'],
    ['analysis.col.upperLower', 'analysis.def.upperLower'],
    ['analysis.col.options', 'analysis.def.options'],
    ['analysis.col.n', 'analysis.def.n'],
  ] as const;
  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('analysis.definitions')}</h2>}>
      <dl style={{ margin: 0 }} data-testid="analysis-definitions">
        {items.map(([label, text]) => (
          <div key={label} style={{ marginBottom: 8 }}>
            <dt style={{ fontWeight: 600 }}>{t(label)}</dt>
            <dd style={{ margin: 0 }}>{t(text)}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** One exam's item analysis: the exam's figures, the questions' table and what each figure means. */
export default function AnalysisPage() {
  const { t } = useI18n();
  useDocumentTitle(t('analysis.title'));
  const me = useStaffMe();
  const examId = Number(useParams().examId);
  const { params, paging, setFilters, table } = useListState(ITEM_ANALYSIS_SORTS);
  const versionId = intParam(params, 'version');
  const section = SECTIONS.find((s) => s === textParam(params, 'section'));
  const flagged = params.get('flagged') === '1';
  const allowed = can(me.data, 'grade.read');
  const query: ItemAnalysisQuery | null =
    allowed && Number.isInteger(examId) && examId > 0
      ? {
          exam_id: examId,
          page: paging.page,
          page_size: paging.page_size,
          ...(versionId !== undefined ? { version_id: versionId } : {}),
          ...(paging.sort ? { sort: paging.sort } : {}),
          ...(paging.order ? { order: paging.order } : {}),
          ...(section ? { section } : {}),
          ...(flagged ? { flagged: '1' as const } : {}),
        }
      : null;
  const analysis = useItemAnalysis(query);
  const data = analysis.data;
  const job = useAnalysisJob(data?.job_id ?? null);
  if (me.data && !allowed) return <Forbidden />;
  const failed = job.data && (job.data.state === 'failed' || job.data.state === 'cancelled');
  const computing = data && data.version_id !== null && data.computed_at === null;
  let empty: string | null = null;
  if (data && data.version_id === null) empty = t('analysis.empty.notPublished');
  else if (data && !computing && data.exam.attempts === 0) empty = t('analysis.empty.noAttempts');
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <PageTitle
        title={data ? `${t('analysis.title')} · ${data.name}` : t('analysis.title')}
        description={t('analysis.description')}
        extra={
          <Space wrap>
            <Link to={`/admin/grading/${examId}`}>{t('analysis.back.grading')}</Link>
            {can(me.data, 'exam.manage') && <Link to={`/admin/exams/${examId}`}>{t('analysis.back.exam')}</Link>}
          </Space>
        }
      />
      <LoadError error={analysis.error} />
      <LoadError error={job.error} />
      {failed && (
        <Alert
          type="error"
          showIcon
          title={t('analysis.computeFailed', {
            reason: errorText(
              new ApiError(
                (job.data!.error?.code ?? 'job_finished') as ApiError['code'],
                0,
                job.data!.error?.message ?? '',
              ),
            ),
          })}
          data-testid="analysis-failed"
        />
      )}
      {computing && !failed && (
        <Card data-testid="analysis-computing">
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Typography.Text>{t('analysis.computing')}</Typography.Text>
            {job.data && <JobProgress job={job.data} />}
          </Space>
        </Card>
      )}
      {empty !== null && (
        <Card>
          <Empty description={empty} data-testid="analysis-empty" />
        </Card>
      )}
      {data && data.computed_at !== null && empty === null && (
        <>
          {data.job_id !== null && !failed && (
            <Alert type="info" showIcon title={t('analysis.recomputing')} data-testid="analysis-recomputing" />
          )}
          <ExamFigures exam={data.exam} />
          {data.flagged > 0 && (
            <Alert
              type="warning"
              showIcon
              title={t('analysis.flaggedCount', { n: data.flagged })}
              description={t('analysis.flag.hint')}
              data-testid="analysis-flagged"
            />
          )}
          <Card>
            <Filters data={data} flagged={flagged} section={section} set={setFilters} />
            <Typography.Paragraph type="secondary">
              {t('analysis.computedAt', { at: serverTime(data.computed_at), n: data.exam.attempts })}
            </Typography.Paragraph>
            <ItemTable list={analysis} state={table} />
          </Card>
          <Definitions />
        </>
      )}
    </Space>
  );
}
