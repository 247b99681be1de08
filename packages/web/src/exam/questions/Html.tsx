import type { ElementType } from 'react';

/** HTML the server has sanitized (question stems, options, passages). */
export function Html({ html, as: Tag = 'div', className }: { html: string; as?: ElementType; className?: string }) {
  return <Tag className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
