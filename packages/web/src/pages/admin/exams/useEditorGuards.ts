import { App } from 'antd';
import { useCallback, useEffect, useRef } from 'react';
import { useI18n } from '../../../i18n/index.js';
import { useBlocker, type Blocker } from '../../../shell/appRouter.js';
import type { DraftEditor } from './useDraftEditor.js';

/** Asks before leaving the editor (in the app or the browser) with unsaved changes. */
export function useUnsavedGuard(dirty: boolean) {
  const { t } = useI18n();
  const { modal } = App.useApp();
  const blocker = useBlocker(
    useCallback(
      ({
        currentLocation,
        nextLocation,
      }: {
        currentLocation: { pathname: string };
        nextLocation: { pathname: string };
      }) => dirty && currentLocation.pathname !== nextLocation.pathname,
      [dirty],
    ),
  );
  // One question at a time: a move held again while it asks (a second back) is answered by the same dialog, which
  // then acts on the latest held move.
  const latest = useRef(blocker);
  const asking = useRef(false);
  useEffect(() => {
    latest.current = blocker;
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    const answer = (act: (b: Blocker) => void) => () => {
      asking.current = false;
      act(latest.current);
    };
    modal.confirm({
      title: t('console.exams.leaveTitle'),
      content: t('console.exams.leaveBody'),
      okText: t('console.exams.leave'),
      okButtonProps: { danger: true },
      cancelText: t('console.exams.stay'),
      onOk: answer((b) => b.proceed()),
      onCancel: answer((b) => b.reset()),
    });
  }, [blocker, modal, t]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
}

/** Ctrl+S (⌘S) saves the draft instead of saving the web page. */
export function useSaveShortcut(editor: DraftEditor, readOnly: boolean) {
  const { dirty, problems, save } = editor;
  useEffect(() => {
    if (readOnly) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        if (dirty && problems.size === 0) save().catch(() => undefined);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dirty, problems, save, readOnly]);
}
