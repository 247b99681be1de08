import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spin } from './Spin.js';
import './ui.css';

/** A button in the app's look: default, primary or text, optionally small or danger; busy while `loading`. */
export function Button({
  type = 'default',
  size,
  danger,
  loading,
  icon,
  className,
  onClick,
  children,
  ...rest
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  type?: 'default' | 'primary' | 'text';
  size?: 'small';
  danger?: boolean;
  loading?: boolean;
  icon?: ReactNode;
  /** Submits its form; a kit button is a plain button otherwise. */
  htmlType?: 'button' | 'submit';
}) {
  const { htmlType = 'button', ...attrs } = rest;
  const classes = [
    'ui-btn',
    type !== 'default' && `ui-btn-${type}`,
    size === 'small' && 'ui-btn-sm',
    danger && 'ui-btn-danger',
    className,
  ];
  return (
    <button
      type={htmlType}
      className={classes.filter(Boolean).join(' ')}
      aria-busy={loading || undefined}
      // A busy button keeps its focus but ignores clicks until the work is done.
      onClick={loading ? undefined : onClick}
      {...attrs}
    >
      {loading ? <Spin /> : icon}
      {children}
    </button>
  );
}
