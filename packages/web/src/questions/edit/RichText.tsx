import { Spin } from 'antd';
import { lazy, Suspense, useContext } from 'react';
import { ReadOnly, useScoped } from './scope.js';
import type { EditorContext } from './types.js';

const RichTextEditor = lazy(() => import('../../exam/questions/RichTextEditor.js'));

/** Rich text of a question (stem, passage, option) with picture upload; follows `value` when it changes. */
export function RichText({
  value,
  onChange,
  label,
  testId,
  compact,
  ctx,
}: {
  value: string;
  onChange: (html: string) => void;
  label: string;
  testId: string;
  compact?: boolean;
  ctx: EditorContext;
}) {
  const scoped = useScoped()(label, testId);
  const readOnly = useContext(ReadOnly);
  return (
    <Suspense fallback={<Spin />}>
      <RichTextEditor
        initialHtml={value}
        value={value}
        onChange={onChange}
        onPasteBlocked={null}
        onUploadImage={ctx.uploadImage}
        compact={compact}
        label={scoped.label}
        testId={scoped.testId}
        readOnly={readOnly}
      />
    </Suspense>
  );
}
