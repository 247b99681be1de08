import { api, type ResultExportResult } from '@examhall/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Flex, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { errorText, fetchFile, request, saveFile } from '../../../api/client.js';
import { queryKey } from '../../../api/queryKeys.js';
import { useI18n } from '../../../i18n/index.js';
import { JobProgress } from '../jobs/JobProgress.js';
import { exportFilter, type RankingState } from './rankingQuery.js';

/** How often a running export is asked for its progress. */
const POLL_MS = 700;

/**
 * Export buttons: each starts a results_export job and shows its progress; the file downloads once the job is done
 * (one click), and stays offered to download again.
 */
export function ExportButtons({ query, lang }: { query: RankingState; lang: 'zh' | 'en' }) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const [jobId, setJobId] = useState<number | null>(null);
  const start = useMutation({
    mutationFn: (format: 'xlsx' | 'csv') =>
      request(api.resultsExport, { body: { exam_id: query.exam_id, format, lang, ...exportFilter(query) } }),
    onSuccess: (d) => setJobId(d.job_id),
    onError: (err) => void message.error(errorText(err)),
  });
  const job = useQuery({
    queryKey: queryKey(api.jobDetail, { job_id: jobId! }),
    queryFn: ({ signal }) => request(api.jobDetail, { query: { job_id: jobId! }, signal }),
    enabled: jobId !== null,
    refetchInterval: (q) =>
      q.state.data && ['done', 'failed', 'cancelled'].includes(q.state.data.state) ? false : POLL_MS,
  });
  const download = useMutation({
    mutationFn: async () => saveFile(await fetchFile(api.resultsExportFile, { job_id: jobId! })),
    onError: (err) => void message.error(errorText(err)),
  });
  const j = job.data;
  const result = j?.state === 'done' ? (j.result as ResultExportResult) : null;
  // Each export's file is saved once, when its job is done.
  const saved = useRef<number | null>(null);
  const { mutate: save } = download;
  useEffect(() => {
    if (result === null || jobId === null || saved.current === jobId) return;
    saved.current = jobId;
    save();
  }, [result, jobId, save]);
  const running = start.isPending || (j !== undefined && !['done', 'failed', 'cancelled'].includes(j.state));
  return (
    <Flex gap={8} align="center" wrap>
      <Button onClick={() => start.mutate('xlsx')} disabled={running} data-testid="export-xlsx">
        {t('console.results.export.xlsx')}
      </Button>
      <Button onClick={() => start.mutate('csv')} disabled={running} data-testid="export-csv">
        {t('console.results.export.csv')}
      </Button>
      {j && j.state !== 'done' && j.state !== 'failed' && <JobProgress job={j} />}
      {j?.state === 'failed' && (
        <Typography.Text type="danger">
          {t('console.results.export.failed', { msg: j.error?.message ?? '' })}
        </Typography.Text>
      )}
      {result && (
        <Button
          type="primary"
          loading={download.isPending}
          onClick={() => download.mutate()}
          data-testid="export-download"
        >
          {t('console.results.export.download', { name: result.file_name })}
        </Button>
      )}
    </Flex>
  );
}
