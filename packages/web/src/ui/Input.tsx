import type { InputHTMLAttributes } from 'react';
import './ui.css';

/** A one-line text field in the app's look; label it with a <label> or aria-label. */
export function Input({ className, ...rest }: InputHTMLAttributes<HTMLInputElement>) {
  return <input type="text" className={className ? `ui-input ${className}` : 'ui-input'} {...rest} />;
}
