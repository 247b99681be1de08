import { useSyncExternalStore } from 'react';
import { Icon } from './icons.js';
import { currentToasts, subscribeToasts } from './toast.js';
import './ui.css';

/** Draws the toasts (ui/toast.ts) at the top of the page; screen readers hear each as it comes. */
export function Toaster() {
  const toasts = useSyncExternalStore(subscribeToasts, currentToasts, currentToasts);
  return (
    <div className="ui-toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`ui-toast ui-toast-${t.type}`} data-testid="toast" data-type={t.type}>
          <Icon name={t.type} />
          <span>{t.content}</span>
        </div>
      ))}
    </div>
  );
}
