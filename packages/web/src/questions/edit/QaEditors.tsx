import { CriteriaField } from './CriteriaField.js';
import { LanguagesField } from './LanguagesField.js';
import { RubricField } from './RubricField.js';
import { StarterCode } from './StarterCode.js';
import { StemField } from './StemField.js';
import type { BodyEditorProps } from './types.js';

/** Q&A: the stem and the grader's rubric. */
export function QaEditor({ value, onChange, problems, ctx, idPrefix }: BodyEditorProps<'qa'>) {
  return (
    <>
      <StemField
        value={value.content.stem}
        onChange={(stem) => onChange({ ...value, content: { stem } })}
        problems={problems}
        ctx={ctx}
      />
      <RubricField
        value={value.key.rubric}
        onChange={(rubric) => onChange({ ...value, key: { ...value.key, rubric } })}
        problems={problems}
        idPrefix={idPrefix}
      />
      <CriteriaField
        value={value.key.criteria}
        onChange={(criteria) => onChange({ ...value, key: { ...value.key, criteria } })}
        problems={problems}
        idPrefix={idPrefix}
      />
    </>
  );
}

/** Programming Q&A: the stem, the languages with their starter code, and the grader's rubric. */
export function ProgrammingQaEditor({ value, onChange, problems, ctx, idPrefix }: BodyEditorProps<'programming_qa'>) {
  return (
    <>
      <StemField
        value={value.content.stem}
        onChange={(stem) => onChange({ ...value, content: { ...value.content, stem } })}
        problems={problems}
        ctx={ctx}
      />
      <LanguagesField
        content={value.content}
        onChange={(content) => onChange({ ...value, content: { ...value.content, ...content } })}
        problems={problems}
        idPrefix={idPrefix}
      />
      <StarterCode
        content={value.content}
        onChange={(starter) => onChange({ ...value, content: { ...value.content, starter } })}
        problems={problems}
      />
      <RubricField
        value={value.key.rubric}
        onChange={(rubric) => onChange({ ...value, key: { ...value.key, rubric } })}
        problems={problems}
        idPrefix={idPrefix}
      />
      <CriteriaField
        value={value.key.criteria}
        onChange={(criteria) => onChange({ ...value, key: { ...value.key, criteria } })}
        problems={problems}
        idPrefix={idPrefix}
      />
    </>
  );
}
