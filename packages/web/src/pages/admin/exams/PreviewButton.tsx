import { EyeOutlined } from '@ant-design/icons';
import { api, type PreviewData } from '@examhall/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Tooltip } from 'antd';
import { storeAuth } from '../../../api/cookies.js';
import { request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { rememberCandidate } from '../../../session/owner.js';
import { ensureCookieDomain } from '../../../session/siteConfig.js';
import { savePreview } from '../../exam/previewMode.js';
import { errorWithDetail } from '../shared/errorDetail.js';
import type { DraftEditor } from './useDraftEditor.js';

/**
 * Makes the preview's token this browser's candidate session, remembers the preview for the exam page's keys
 * switch, and points the tab opened on click at the candidate pages.
 */
async function openPreview(p: PreviewData, tab: Window | null): Promise<void> {
  storeAuth(p.token, await ensureCookieDomain());
  rememberCandidate(p.candidate_id);
  try {
    savePreview(window.localStorage, {
      exam_id: p.exam_id,
      anid: p.anid,
      version_id: p.version_id,
      expires_at: p.expires_at,
      show_keys: false,
    });
  } catch {
    // Without storage the preview still runs, only without the keys switch.
  }
  const url = `/exam/${p.exam_id}/${p.anid}`;
  if (tab) {
    tab.opener = null;
    tab.location.href = url;
  } else window.open(url, '_blank', 'noopener');
}

/**
 * Preview as a candidate: saves the draft when needed, freezes it as a preview version with a preview
 * attempt that counts nowhere, and opens the real candidate pages on it in a new tab (the preview's token
 * becomes this browser's candidate session; the exam page offers the keys).
 */
export function PreviewButton({
  examId,
  editor,
  disabled,
}: {
  examId: number;
  editor: DraftEditor;
  disabled: boolean;
}) {
  const { t } = useI18n();
  const { message } = App.useApp();
  const preview = useMutation({
    mutationFn: async () => {
      if (editor.dirty) await editor.save();
      return request(api.examEditorPreview, { body: { exam_id: examId } });
    },
  });
  const open = () => {
    // Opened now, inside the click, so no pop-up blocker refuses it; its address is set once the preview exists.
    const tab = window.open('', '_blank');
    preview.mutate(undefined, {
      onSuccess: (p) => void openPreview(p, tab),
      onError: (e) => {
        tab?.close();
        const { text, detail } = errorWithDetail(e);
        void message.error(detail ? `${text}: ${detail}` : text);
      },
    });
  };
  return (
    <Tooltip title={t('console.exams.previewHint')}>
      <Button
        icon={<EyeOutlined aria-hidden />}
        onClick={open}
        loading={preview.isPending}
        disabled={disabled}
        data-testid="exam-preview"
      >
        {t('console.exams.preview')}
      </Button>
    </Tooltip>
  );
}
