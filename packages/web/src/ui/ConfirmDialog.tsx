import { useState, type ReactNode } from 'react';
import { Button } from './Button.js';
import { Dialog } from './Dialog.js';

/**
 * A question with OK and Cancel. OK runs `onOk`; while the promise it returns is pending the button is busy, and
 * the dialog closes when it settles. Cancel, and Escape, close it without running anything.
 */
export function ConfirmDialog(p: {
  open: boolean;
  title: ReactNode;
  children: ReactNode;
  okText: string;
  cancelText: string;
  onOk: () => unknown;
  onClose: () => void;
  okTestId?: string;
}) {
  const [busy, setBusy] = useState(false);
  const ok = () => {
    setBusy(true);
    void Promise.resolve()
      .then(p.onOk)
      .catch(() => undefined)
      .finally(() => {
        setBusy(false);
        p.onClose();
      });
  };
  return (
    <Dialog
      open={p.open}
      title={p.title}
      onCancel={busy ? undefined : p.onClose}
      footer={
        <>
          <Button onClick={p.onClose} disabled={busy}>
            {p.cancelText}
          </Button>
          <Button type="primary" loading={busy} onClick={ok} autoFocus data-testid={p.okTestId}>
            {p.okText}
          </Button>
        </>
      }
    >
      {p.children}
    </Dialog>
  );
}
