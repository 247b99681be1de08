import { subjectCalls } from '@examhall/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { errorText, request } from '../../api/client.js';
import { useI18n } from '../../i18n/index.js';
import { Alert } from '../../ui/Alert.js';
import { Button } from '../../ui/Button.js';
import { Space } from '../../ui/Flex.js';
import { Icon } from '../../ui/icons.js';
import { Text } from '../../ui/Typography.js';

/** The play button of a listening question: plays left come from the server, which counts every play. */
export function ListeningPlayer({ examId, subjectId }: { examId: number; subjectId: number }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const key = ['audio-info', examId, subjectId];
  const info = useQuery({
    queryKey: key,
    queryFn: () => request(subjectCalls.audioInfo, { body: { exam_id: examId, subject_id: subjectId } }),
    staleTime: 0,
  });
  const [playing, setPlaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);
  useEffect(() => () => audio.current?.pause(), []);

  const play = useMutation({
    mutationFn: () => request(subjectCalls.audioPlay, { body: { exam_id: examId, subject_id: subjectId } }),
    onSuccess: async (data) => {
      queryClient.setQueryData(key, data);
      if (!data.url) return;
      const el = new Audio(data.url);
      audio.current = el;
      el.onended = () => setPlaying(false);
      el.onerror = () => {
        setPlaying(false);
        setError(t('exam.audio.failed', { msg: el.error?.message || String(el.error?.code ?? '') }));
      };
      setPlaying(true);
      try {
        await el.play();
      } catch (e) {
        setPlaying(false);
        setError(t('exam.audio.failed', { msg: e instanceof Error ? e.message : String(e) }));
      }
    },
    onError: (e) => {
      setError(t('exam.audio.failed', { msg: errorText(e) }));
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });

  const left = info.data ? Math.max(0, info.data.play_limit - info.data.play_count) : 0;
  return (
    <div className="listening" data-testid="listening">
      <Space>
        <Button
          icon={<Icon name="sound" />}
          onClick={() => {
            setError(null);
            play.mutate();
          }}
          disabled={!info.data || left === 0 || playing}
          loading={play.isPending}
          data-testid="audio-play"
        >
          {t('exam.audio.play')}
        </Button>
        {info.data && (
          <Text aria-live="polite" data-testid="audio-plays-left">
            {left > 0 ? t('exam.audio.playsLeft', { n: left, limit: info.data.play_limit }) : t('exam.audio.none')}
          </Text>
        )}
        {info.data && <Text type="secondary">{t('exam.audio.duration', { s: info.data.duration_s })}</Text>}
      </Space>
      {info.isError && <Alert type="error" title={errorText(info.error)} />}
      {error && <Alert type="warning" title={error} style={{ marginTop: 8 }} />}
    </div>
  );
}
