import { examEditorCalls } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Switch, Typography } from 'antd';
import { errorText, request } from '../../api/client.js';
import { useI18n, type MessageKey } from '../../i18n/index.js';
import '../../i18n/console.js';
import { describeKey, type PreviewMarker } from './previewMode.js';

/** The words of a key line's label that have a translation. */
const WORDS: Record<string, MessageKey> = {
  option: 'console.preview.word.option',
  options: 'console.preview.word.options',
  blank: 'console.preview.word.blank',
  scores: 'console.preview.word.scores',
  sub: 'console.preview.word.sub',
  hidden: 'console.preview.word.hidden',
  cases: 'console.preview.word.cases',
  reference: 'console.preview.word.reference',
  checker: 'console.preview.word.checker',
  rubric: 'console.preview.word.rubric',
};

/** The key of one question of a preview attempt, behind a switch (loaded only on preview attempts). */
export default function KeyPanel({
  marker,
  subjectId,
  onToggle,
}: {
  marker: PreviewMarker;
  subjectId: number;
  onToggle: (show: boolean) => void;
}) {
  const { t } = useI18n();
  const keys = useQuery({
    queryKey: ['preview-keys', marker.exam_id, marker.version_id],
    queryFn: ({ signal }) =>
      request(examEditorCalls.examEditorPreviewKeys, {
        query: { exam_id: marker.exam_id, version_id: marker.version_id },
        signal,
      }),
    enabled: marker.show_keys,
    staleTime: Infinity,
  });
  const item = keys.data?.list.find((k) => k.subject_id === subjectId);
  const word = (w: string) => (w in WORDS ? t(WORDS[w]!) : w);
  return (
    <aside
      className="preview-keys"
      aria-label={t('console.preview.keys')}
      data-testid="preview-keys"
      style={{ marginTop: 16 }}
    >
      <Alert
        type="info"
        title={
          <label style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
            <Switch size="small" checked={marker.show_keys} onChange={onToggle} data-testid="preview-keys-switch" />
            {t('console.preview.showKeys')}
          </label>
        }
        description={
          marker.show_keys &&
          (keys.isError ? (
            <Typography.Text type="danger">{errorText(keys.error)}</Typography.Text>
          ) : !keys.data ? (
            t('common.loading')
          ) : !item ? (
            t('console.preview.noKey')
          ) : (
            <Descriptions size="small" column={1} data-testid="preview-key">
              <Descriptions.Item label={t('console.preview.points')}>{item.score}</Descriptions.Item>
              {describeKey(item.key).map((line) => (
                <Descriptions.Item key={line.label} label={line.label.split(' ').map(word).join(' ')}>
                  <span style={{ whiteSpace: 'pre-wrap' }}>{line.value}</span>
                </Descriptions.Item>
              ))}
            </Descriptions>
          ))
        }
      />
    </aside>
  );
}
