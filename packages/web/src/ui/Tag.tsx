import type { HTMLAttributes } from 'react';
import './ui.css';

/** The tag colours the app uses, as antd's preset colours with the theme's darker text. */
export type TagColor = 'default' | 'gold' | 'red' | 'blue' | 'green' | 'orange';

/** A small label beside a title (a question's type, points, a practice badge). */
export function Tag({ color = 'default', className, ...rest }: HTMLAttributes<HTMLSpanElement> & { color?: TagColor }) {
  const classes = ['ui-tag', color !== 'default' && `ui-tag-${color}`, className];
  return <span className={classes.filter(Boolean).join(' ')} {...rest} />;
}
