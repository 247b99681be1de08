import type { LanguageId } from '@examhall/contract';
import { Spin } from 'antd';
import { lazy, Suspense, useContext } from 'react';
import { useI18n } from '../../i18n/index.js';
import { ReadOnly } from './scope.js';

const CodeEditor = lazy(() => import('../../exam/questions/CodeEditor.js'));

/** CodeMirror for source an author writes (starter code, reference solution, custom checker). */
export function SourceEditor({
  language,
  code,
  onChange,
  label,
  testId,
}: {
  language: LanguageId;
  code: string;
  onChange: (code: string) => void;
  label: string;
  testId: string;
}) {
  const { t } = useI18n();
  const readOnly = useContext(ReadOnly);
  return (
    <div data-testid={testId}>
      <Suspense fallback={<Spin description={t('exam.code.loading')} />}>
        <CodeEditor
          language={language}
          code={code}
          onChange={onChange}
          onPasteBlocked={null}
          label={label}
          readOnly={readOnly}
        />
      </Suspense>
    </div>
  );
}
