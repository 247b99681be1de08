import { api, type EditorExamDetail } from '@examhall/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Space } from 'antd';
import { useState } from 'react';
import { request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { errorWithDetail } from '../shared/errorDetail.js';
import { examKey } from './queries.js';
import type { DraftEditor } from './useDraftEditor.js';

/** Why the last save or publish failed: a conflict with someone else's save (and what to do), or the server's reason. */
export function SaveProblems({ detail, editor }: { detail: EditorExamDetail; editor: DraftEditor }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [loading, setLoading] = useState(false);
  const latest = async () => {
    setLoading(true);
    try {
      const fresh = await request(api.examEditorDetail, { query: { exam_id: detail.id } });
      queryClient.setQueryData(examKey(detail.id), fresh);
      return fresh;
    } finally {
      setLoading(false);
    }
  };
  if (editor.conflict) {
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="exam-conflict"
        title={t('console.exams.conflictTitle')}
        description={
          <Space orientation="vertical">
            <span>{t('console.exams.conflictBody')}</span>
            <Space wrap>
              <Button loading={loading} onClick={() => void latest().then((fresh) => editor.reset(fresh))}>
                {t('console.exams.conflictLoad')}
              </Button>
              <Button
                danger
                loading={loading}
                onClick={() => void latest().then((fresh) => editor.adoptRevision(fresh.revision))}
              >
                {t('console.exams.conflictKeep')}
              </Button>
            </Space>
          </Space>
        }
      />
    );
  }
  const failure = editor.publishError ?? editor.saveError;
  if (!failure) return null;
  const { text, detail: why } = errorWithDetail(failure);
  return <Alert type="error" showIcon role="alert" data-testid="exam-save-error" title={text} description={why} />;
}
