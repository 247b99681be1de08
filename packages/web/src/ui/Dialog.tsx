import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { tabStops, wrapTab } from './focus.js';
import './ui.css';

/**
 * A modal dialog over the page, labelled by its title. Focus moves into it when it opens (to an autoFocus control,
 * else its first control, else the dialog itself), Tab and Shift+Tab stay inside, and focus goes back where it was
 * when it closes. Escape closes it only when it can be closed (`onCancel`); a notice the candidate must answer has
 * no onCancel.
 */
export function Dialog({
  open,
  title,
  footer,
  onCancel,
  children,
  ...data
}: {
  open: boolean;
  title: ReactNode;
  footer?: ReactNode;
  onCancel?: () => void;
  children?: ReactNode;
} & { [data: `data-${string}`]: string | number | undefined }) {
  if (!open) return null;
  return createPortal(
    <DialogPanel title={title} footer={footer} onCancel={onCancel} data={data}>
      {children}
    </DialogPanel>,
    document.body,
  );
}

function DialogPanel(p: {
  title: ReactNode;
  footer: ReactNode;
  onCancel: (() => void) | undefined;
  data: Record<string, unknown>;
  children: ReactNode;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  // Read while drawing, before an autoFocus control inside takes the focus.
  const [before] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const el = panel.current;
    // An autoFocus control has focus already (React focuses it when it mounts).
    if (el && !el.contains(document.activeElement)) (tabStops(el)[0] ?? el).focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, [before]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      p.onCancel?.();
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const stops = tabStops(panel.current);
    const to = wrapTab(stops.length, stops.indexOf(document.activeElement as HTMLElement), e.shiftKey);
    if (stops.length === 0) e.preventDefault();
    if (to === null) return;
    e.preventDefault();
    stops[to]?.focus();
  };

  return (
    <div className="ui-dialog-mask">
      <div
        ref={panel}
        className="ui-dialog-panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        {...p.data}
      >
        <h2 className="ui-dialog-title" id={titleId}>
          {p.title}
        </h2>
        <div className="ui-dialog-body">{p.children}</div>
        {p.footer && <div className="ui-dialog-footer">{p.footer}</div>}
      </div>
    </div>
  );
}
