import { api } from '@examhall/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Drawer, Skeleton } from 'antd';
import { useRef } from 'react';
import { isApiError, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { errorWithDetail } from '../shared/errorDetail.js';
import { LoadError } from '../shared/PageTitle.js';
import { questionKey } from './queries.js';
import { QuestionForm } from './QuestionForm.js';

/**
 * Creates or edits one question in a drawer: the question editor (every kind, checked as the author types),
 * the folder, and saving with the revision the edit started from, so a save over someone else's is explained
 * instead of lost.
 */
export function QuestionDrawer(props: {
  /** 'new', a question id, or null when closed. */
  target: 'new' | number | null;
  /** Folder a new question goes into (the list's folder). */
  folderId: number | null;
  readOnly: boolean;
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  const { t } = useI18n();
  const id = typeof props.target === 'number' ? props.target : null;
  // The form inside decides whether the drawer may close (it asks first when there are unsaved changes).
  const mayClose = useRef<() => boolean>(() => true);
  const close = () => {
    if (mayClose.current()) props.onClose();
  };
  const stored = useQuery({
    queryKey: questionKey(id ?? 0),
    queryFn: ({ signal }) => request(api.bankQuestion, { query: { question_id: id ?? 0 }, signal }),
    enabled: id !== null,
    // The drawer keeps its own copy while the author types.
    refetchOnWindowFocus: false,
  });
  const title =
    props.target === 'new'
      ? t('console.bank.newQuestion')
      : id !== null
        ? t(props.readOnly ? 'console.bank.viewTitle' : 'console.bank.editTitle', { id })
        : '';
  return (
    <Drawer
      open={props.target !== null}
      onClose={close}
      title={title}
      size={1000}
      destroyOnHidden
      data-testid="question-drawer"
    >
      {props.target === 'new' && <QuestionForm key="new" {...props} view={null} mayClose={mayClose} />}
      {id !== null && stored.isError && <StoredError error={stored.error} />}
      {id !== null && stored.isPending && <Skeleton active />}
      {id !== null && stored.data && (
        <QuestionForm
          key={`${id}`}
          {...props}
          view={stored.data}
          folderId={stored.data.folder_id}
          mayClose={mayClose}
        />
      )}
    </Drawer>
  );
}

/** A stored question that cannot be opened: one that no longer parses is named with why. */
function StoredError({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (isApiError(error) && error.code === 'question_invalid') {
    const { text, detail } = errorWithDetail(error);
    return <Alert type="error" showIcon title={text} description={detail ?? t('console.bank.invalidStored')} />;
  }
  return <LoadError error={error} />;
}
