import type { HTMLAttributes } from 'react';
import './ui.css';

/** The tones of text, as the theme's (secondary, success, warning and danger text colours). */
export type TextType = 'secondary' | 'success' | 'warning' | 'danger';

type TextProps = HTMLAttributes<HTMLElement> & { type?: TextType; strong?: boolean };

function classes(base: string | undefined, type: TextType | undefined, className: string | undefined): string {
  return [base, type && `ui-type-${type}`, className].filter(Boolean).join(' ');
}

/** A heading of the given level, in the theme's heading sizes. */
export function Title({
  level = 1,
  className,
  ...rest
}: HTMLAttributes<HTMLHeadingElement> & { level?: 1 | 2 | 3 | 4 | 5 }) {
  const Tag = `h${level}` as const;
  return <Tag className={classes('ui-title', undefined, className)} {...rest} />;
}

/** Inline text in a tone, optionally bold. */
export function Text({ type, strong, className, children, ...rest }: TextProps) {
  return (
    <span className={classes(undefined, type, className) || undefined} {...rest}>
      {strong ? <strong>{children}</strong> : children}
    </span>
  );
}

/** A paragraph in a tone, optionally bold. */
export function Paragraph({ type, strong, className, children, ...rest }: TextProps) {
  return (
    <div className={classes('ui-paragraph', type, className)} {...rest}>
      {strong ? <strong>{children}</strong> : children}
    </div>
  );
}
