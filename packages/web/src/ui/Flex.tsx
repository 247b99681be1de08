import type { CSSProperties, HTMLAttributes } from 'react';
import './ui.css';

/** A flex row (or column) with a gap between its children. */
export function Flex({
  vertical,
  wrap,
  align,
  justify,
  gap,
  className,
  style,
  ...rest
}: HTMLAttributes<HTMLDivElement> & {
  vertical?: boolean;
  wrap?: boolean;
  align?: CSSProperties['alignItems'];
  justify?: CSSProperties['justifyContent'];
  gap?: number;
}) {
  const classes = ['ui-flex', vertical && 'ui-flex-vertical', wrap && 'ui-flex-wrap', className];
  return (
    <div
      className={classes.filter(Boolean).join(' ')}
      style={{ alignItems: align, justifyContent: justify, gap, ...style }}
      {...rest}
    />
  );
}

/** Items side by side with a small gap, wrapping when the line is full (buttons in a row). */
export function Space(props: HTMLAttributes<HTMLDivElement>) {
  return <Flex wrap align="center" gap={8} {...props} />;
}
