import './ui.css';

/** Grey lines where content is loading; screen readers hear the label. */
export function Skeleton({ label }: { label: string }) {
  return (
    <div className="ui-skeleton" role="status" aria-label={label} aria-busy data-loading>
      <span />
      <span />
      <span />
      <span />
    </div>
  );
}
