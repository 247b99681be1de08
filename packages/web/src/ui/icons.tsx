/** The few icons the kit and the exam page show: simple line drawings in the text colour, hidden from screen readers. */
import type { CSSProperties, ReactNode } from 'react';
import './ui.css';

/** The kinds of notice (alerts, toasts), each with its icon. */
export type NoticeType = 'success' | 'info' | 'warning' | 'error';

const ring = <circle cx="12" cy="12" r="9" />;
const exclamation = (
  <>
    {ring}
    <path d="M12 7v6M12 16.5v.5" />
  </>
);

/** Each icon's drawing on a 24 by 24 grid. */
const DRAWINGS = {
  /** The language switch. */
  globe: (
    <>
      {ring}
      <path d="M3 12h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z" />
    </>
  ),
  /** Marked for review. */
  flag: <path d="M5 21V4M5 4h11l-2 4 2 4H5" />,
  /** Play the recording. */
  sound: <path d="M4 9h4l5-4v14l-5-4H4zM16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12" />,
  /** Enter fullscreen. */
  fullscreen: <path d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5" />,
  /** Close. */
  close: <path d="M6 6l12 12M18 6L6 18" />,
  success: (
    <>
      {ring}
      <path d="M8 12.5l3 3 5-6" />
    </>
  ),
  info: (
    <>
      {ring}
      <path d="M12 11v6M12 7.5v.5" />
    </>
  ),
  warning: exclamation,
  error: exclamation,
} satisfies Record<string, ReactNode>;

/** The names of the icons. */
export type IconName = keyof typeof DRAWINGS;

/** An icon by name. */
export function Icon({ name, style }: { name: IconName; style?: CSSProperties }) {
  return (
    <svg className="ui-icon" viewBox="0 0 24 24" aria-hidden focusable="false" style={style}>
      {DRAWINGS[name]}
    </svg>
  );
}
