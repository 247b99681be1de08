import { api, type BankQuestionView } from '@examhall/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, ConfigProvider, Space, TreeSelect, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { isApiError, request } from '../../../api/client.js';
import { useI18n } from '../../../i18n/index.js';
import { draftFromView, emptyDraft, type QuestionDraft } from '../../../questions/drafts.js';
import { QuestionEditor } from '../../../questions/edit/QuestionEditor.js';
import { checkDraft, type DraftFields } from '../../../questions/problems.js';
import { can, useStaffMe } from '../../../session/staff.js';
import { serverTime } from '../../../shell/serverTime.js';
import { TeamSelect } from '../staff/TeamSelect.js';
import { folderOptions, type FolderOption } from './folderTree.js';
import { invalidateBank, questionKey, useFolders, useTags } from './queries.js';
import { ItemFlagAlert } from './FlagNotice.js';
import { ConflictAlert, SaveBar, SaveError } from './QuestionSaveParts.js';

/** What the save found: nothing yet, a conflict with a newer revision (with who made it), or another failure. */
type SaveState = { kind: 'idle' } | { kind: 'conflict'; latest: BankQuestionView } | { kind: 'error'; error: unknown };

/** The drawer's form: folder, team, the question editor, conflicts and saving. */
export function QuestionForm(props: {
  view: BankQuestionView | null;
  folderId: number | null;
  readOnly: boolean;
  onClose: () => void;
  onCreated: (id: number) => void;
  mayClose: RefObject<() => boolean>;
}) {
  const { t } = useI18n();
  const { message, modal } = App.useApp();
  const me = useStaffMe();
  const queryClient = useQueryClient();
  const folders = useFolders();
  const tags = useTags();
  const [base, setBase] = useState<BankQuestionView | null>(props.view);
  const initial = useMemo(() => (base ? draftFromView(base) : emptyDraft('single')), [base]);
  const [draft, setDraft] = useState<QuestionDraft>(initial);
  const [folderId, setFolderId] = useState<number | null>(props.folderId);
  const [teamId, setTeamId] = useState<number | null>(me.data?.team_id ?? null);
  const [generation, setGeneration] = useState(0);
  const [showAll, setShowAll] = useState(false);
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const unsaved =
    JSON.stringify(draft) !== JSON.stringify(initial) || folderId !== (base ? base.folder_id : props.folderId);
  const admin = me.data?.role === 'admin';

  const save = useMutation({
    // The fields come from the same schema check the editor shows: what is sent is what the server accepts.
    mutationFn: ({ fields, revision }: { fields: DraftFields; revision: number | null }) => {
      if (base && revision !== null) {
        return request(api.bankQuestionUpdate, {
          body: { question_id: base.id, revision, folder_id: folderId, ...fields },
        });
      }
      return request(api.bankQuestionCreate, {
        body: { folder_id: folderId, ...(admin && folderId === null ? { team_id: teamId } : {}), ...fields },
      });
    },
    onSuccess: (saved) => {
      setState({ kind: 'idle' });
      queryClient.setQueryData(questionKey(saved.id), saved);
      invalidateBank(queryClient);
      void message.success(t('console.bank.questionSaved', { id: saved.id }));
      setBase(saved);
      setDraft(draftFromView(saved));
      setFolderId(saved.folder_id);
      if (!base) props.onCreated(saved.id);
    },
    onError: async (e) => {
      if (isApiError(e) && e.code === 'revision_stale' && base) {
        // Who saved in between, and when: the conflict is explained with the stored question as it is now.
        const latest = await request(api.bankQuestion, { query: { question_id: base.id } }).catch(() => null);
        if (latest) return setState({ kind: 'conflict', latest });
      }
      setState({ kind: 'error', error: e });
    },
  });

  const trySave = (revision: number | null) => {
    const checked = checkDraft(draft);
    if (!checked.ok) {
      setShowAll(true);
      void message.error(t('console.bank.fixFirst'));
      return;
    }
    save.mutate({ fields: checked.fields, revision });
  };

  // Closing (Escape, the mask, the close buttons) asks first when there are unsaved changes.
  const close = () => {
    if (!unsaved || props.readOnly) return props.onClose();
    modal.confirm({
      title: t('console.bank.discardTitle'),
      content: t('console.bank.discardBody'),
      okText: t('console.bank.discard'),
      okButtonProps: { danger: true },
      cancelText: t('console.bank.keepEditing'),
      onOk: props.onClose,
    });
  };
  const saveNow = () => trySave(base?.revision ?? null);
  const latest = useRef({ unsaved, close, saveNow });
  useEffect(() => {
    latest.current = { unsaved, close, saveNow };
  });
  useEffect(() => {
    const guard = props.mayClose;
    guard.current = () => {
      if (!latest.current.unsaved || props.readOnly) return true;
      latest.current.close();
      return false;
    };
    // Ctrl+S (⌘S) saves while the drawer is open.
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        if (!props.readOnly) latest.current.saveNow();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      guard.current = () => true;
      window.removeEventListener('keydown', onKey);
    };
  }, [props.mayClose, props.readOnly]);

  const folderTree = useMemo(
    (): FolderOption<number>[] => [
      { value: -1, title: t('console.bank.unfiled'), children: [] },
      ...folderOptions(folders.data?.list ?? [], (f) => f.id),
    ],
    [folders.data, t],
  );

  // The reference check to show: the stored question's as last fetched (a check refetches it, so one made
  // just before this form took over from the creating one still shows), unless this form has saved since.
  const verification =
    props.view && base && props.view.revision === base.revision
      ? props.view.verification
      : (base?.verification ?? null);

  const editor = (
    <QuestionEditor
      key={generation}
      value={draft}
      onChange={setDraft}
      questionId={base?.id}
      verification={verification}
      unsaved={unsaved}
      showAllProblems={showAll}
      tagOptions={(tags.data?.list ?? []).map((tg) => tg.tag)}
      onVerified={() => {
        void queryClient.invalidateQueries({ queryKey: questionKey(base?.id ?? 0) });
        invalidateBank(queryClient);
      }}
    />
  );

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {base && (
        <Typography.Text type="secondary" data-testid="question-info">
          {t('console.bank.questionInfo', {
            author: base.author.name,
            editor: base.editor.name,
            time: serverTime(base.updated_at),
            used: base.used_count,
            revision: base.revision,
          })}
        </Typography.Text>
      )}
      {base && base.used_count > 0 && !props.readOnly && (
        <Alert type="info" showIcon title={t('console.bank.usedNote', { n: base.used_count })} />
      )}
      {base && <ItemFlagAlert flags={base.flags} />}
      <Form layout="vertical" component="div" disabled={props.readOnly}>
        <Space wrap align="start">
          <Form.Item label={t('console.bank.folder')} htmlFor="question-folder" style={{ minWidth: 260 }}>
            <TreeSelect
              id="question-folder"
              treeDefaultExpandAll
              value={folderId ?? -1}
              onChange={(v: number) => setFolderId(v === -1 ? null : v)}
              treeData={folderTree}
              data-testid="question-folder"
            />
          </Form.Item>
          {admin && !base && folderId === null && (
            <Form.Item label={t('console.staff.col.team')} htmlFor="question-team" extra={t('console.bank.teamHint')}>
              <TeamSelect id="question-team" value={teamId} onChange={setTeamId} testId="question-team" />
            </Form.Item>
          )}
        </Space>
      </Form>
      {props.readOnly ? <ConfigProvider componentDisabled>{editor}</ConfigProvider> : editor}
      {state.kind === 'conflict' && (
        <ConflictAlert
          latest={state.latest}
          saving={save.isPending}
          onLoad={() => {
            setBase(state.latest);
            setDraft(draftFromView(state.latest));
            setFolderId(state.latest.folder_id);
            setGeneration((g) => g + 1);
            setState({ kind: 'idle' });
          }}
          onKeep={() => trySave(state.latest.revision)}
        />
      )}
      {state.kind === 'error' && <SaveError error={state.error} />}
      {!props.readOnly && can(me.data, 'bank.manage') && (
        <SaveBar creating={!base} saving={save.isPending} unsaved={unsaved} onSave={saveNow} onClose={close} />
      )}
    </Space>
  );
}
