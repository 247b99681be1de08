import { CasesField } from './CasesField.js';
import { CheckerField } from './CheckerField.js';
import { LanguagesField } from './LanguagesField.js';
import { LimitsFields } from './LimitsFields.js';
import { ReferenceField } from './ReferenceField.js';
import { SamplesEditor } from './SamplesEditor.js';
import { StarterCode } from './StarterCode.js';
import { StemField } from './StemField.js';
import type { BodyEditorProps } from './types.js';

/**
 * Programming: statement, languages and starter code, samples, limits, hidden cases from a zip, the checker,
 * and the reference solution with its check by the judge.
 */
export function ProgrammingEditor({ value, onChange, problems, ctx, idPrefix }: BodyEditorProps<'programming'>) {
  const { content, key } = value;
  const setContent = (patch: Partial<typeof content>) => onChange({ ...value, content: { ...content, ...patch } });
  const setKey = (patch: Partial<typeof key>) => onChange({ ...value, key: { ...key, ...patch } });
  return (
    <>
      <StemField value={content.stem} onChange={(stem) => setContent({ stem })} problems={problems} ctx={ctx} />
      <LanguagesField content={content} onChange={setContent} problems={problems} idPrefix={idPrefix} />
      <StarterCode content={content} onChange={(starter) => setContent({ starter })} problems={problems} />
      <SamplesEditor
        samples={content.samples}
        onChange={(samples) => setContent({ samples })}
        problems={problems}
        idPrefix={idPrefix}
      />
      <LimitsFields content={content} onChange={setContent} problems={problems} idPrefix={idPrefix} />
      <CasesField cases={key.cases} onChange={(cases) => setKey({ cases })} problems={problems} idPrefix={idPrefix} />
      <CheckerField
        checker={key.checker}
        languages={content.languages}
        onChange={(checker) => setKey({ checker })}
        problems={problems}
        idPrefix={idPrefix}
      />
      <ReferenceField
        reference={key.reference}
        languages={content.languages}
        onChange={(reference) => {
          const next = { ...key, reference };
          // No reference is no field at all (the schema's optional), not an undefined one.
          if (reference === undefined) delete next.reference;
          onChange({ ...value, key: next });
        }}
        problems={problems}
        ctx={ctx}
        idPrefix={idPrefix}
      />
    </>
  );
}
