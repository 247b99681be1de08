import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A table column title that may hold a control (the select-all checkbox). antd draws every title a second
 * time in an aria-hidden row that measures column widths (tables that scroll sideways); a control there is a
 * keyboard stop screen readers cannot see. The copy in that row is made inert; the header's stays as it is.
 */
export function MeasureSafe({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el?.closest('tr[aria-hidden="true"]')) el.inert = true;
  }, []);
  return <span ref={ref}>{children}</span>;
}
