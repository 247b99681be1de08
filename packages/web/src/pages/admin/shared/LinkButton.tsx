/**
 * A button that reads as a link: what opens a drawer or sets a filter on the same page. An <a> without href
 * (antd's Typography.Link with only onClick) is not reached by Tab nor pressed by Enter; this is a <button>, inline
 * like text, so it wraps and clamps as the words around it do (styles.css: .link-button).
 */
import type { ButtonHTMLAttributes } from 'react';

/** A link-styled button; its props are a button's. */
export function LinkButton({ className, ...props }: ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type="button" className={className ? `link-button ${className}` : 'link-button'} {...props} />;
}
