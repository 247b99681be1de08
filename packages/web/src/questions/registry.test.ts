import { QUESTION_KINDS, QUESTION_REGISTRY } from '@examhall/contract';
import { describe, expect, it } from 'vitest';
import { emptyBody } from './drafts.js';
import { QUESTION_EDITORS } from './edit/editors.js';
import { kindLabel, WEB_QUESTION_REGISTRY } from './registry.js';
import { loadLanguage } from '../i18n/format.js';

// English is fetched when first chosen; these tests read it.
await loadLanguage('en-US');

describe('the web question registry', () => {
  it('has every kind of the contract registry and no other', () => {
    expect(Object.keys(WEB_QUESTION_REGISTRY).sort()).toEqual(Object.keys(QUESTION_REGISTRY).sort());
    expect(Object.keys(WEB_QUESTION_REGISTRY).sort()).toEqual([...QUESTION_KINDS].sort());
  });

  it.each(QUESTION_KINDS)('%s: has a label in both languages, a renderer, an editor and a new body', (kind) => {
    const entry = WEB_QUESTION_REGISTRY[kind];
    expect(kindLabel(kind, 'zh-CN').trim()).not.toBe('');
    expect(kindLabel(kind, 'en-US').trim()).not.toBe('');
    // A plain component, or one loaded on first use (React.lazy).
    const lazy = (entry.Renderer as { $$typeof?: symbol }).$$typeof === Symbol.for('react.lazy');
    expect(typeof entry.Renderer === 'function' || lazy).toBe(true);
    expect(typeof QUESTION_EDITORS[kind]).toBe('function');
    expect(emptyBody(kind)).toHaveProperty('content.stem', '');
  });

  it('names kinds apart from each other', () => {
    const labels = QUESTION_KINDS.map((k) => kindLabel(k, 'zh-CN'));
    expect(new Set(labels).size).toBe(labels.length);
  });
});
