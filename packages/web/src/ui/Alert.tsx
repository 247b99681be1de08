import type { CSSProperties, ReactNode } from 'react';
import { Icon, type NoticeType } from './icons.js';
import './ui.css';

/**
 * A notice in a tinted box with its icon: a title, an optional description and action, and a close button when
 * `onClose` is given. It is an alert to screen readers unless `role` says otherwise.
 */
export function Alert({
  type,
  title,
  description,
  action,
  onClose,
  closeLabel,
  role = 'alert',
  className,
  style,
  ...data
}: {
  type: NoticeType;
  title: ReactNode;
  description?: ReactNode;
  action?: ReactNode;
  onClose?: () => void;
  /** The close button's label (required with onClose). */
  closeLabel?: string;
  role?: 'alert' | 'status' | 'note';
  className?: string;
  style?: CSSProperties;
} & { [data: `data-${string}`]: string | number | undefined }) {
  return (
    <div role={role} className={`ui-alert ui-alert-${type} ${className ?? ''}`} style={style} {...data}>
      <span className="ui-alert-icon">
        <Icon name={type} />
      </span>
      <div className="ui-alert-content">
        <div className="ui-alert-title">{title}</div>
        {description && <div className="ui-alert-description">{description}</div>}
      </div>
      {action && <div className="ui-alert-action">{action}</div>}
      {onClose && (
        <button type="button" className="ui-alert-close" aria-label={closeLabel} onClick={onClose}>
          <Icon name="close" />
        </button>
      )}
    </div>
  );
}
