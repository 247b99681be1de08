/** The question kinds of the web app: the registry, the editors and what a page needs around it. */
export { QuestionEditor, type QuestionEditorProps } from './edit/QuestionEditor.js';
export { draftFromView, emptyDraft, convertDraft, type QuestionDraft } from './drafts.js';
export { checkDraft, validateDraft, type DraftFields, type Problem } from './problems.js';
export { kindLabel, WEB_QUESTION_REGISTRY, type WebQuestionEntry } from './registry.js';
export { QUESTION_EDITORS } from './edit/editors.js';
