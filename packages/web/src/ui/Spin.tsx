import './ui.css';

/**
 * A spinner. With a label it announces itself as a loading status; without one it is decoration beside
 * text that says what is happening.
 */
export function Spin({ size, label, block }: { size?: 'large'; label?: string; block?: boolean }) {
  const spinner = (
    <span
      className={size === 'large' ? 'ui-spin ui-spin-lg' : 'ui-spin'}
      role={label ? 'status' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      data-loading
    />
  );
  return block ? <div className="ui-spin-block">{spinner}</div> : spinner;
}
