import { describe, expect, it } from 'vitest';
import { fieldPathText, isTimeField } from './fields.js';

describe('audit field paths in words', () => {
  it('names each key in the language, positions from one', () => {
    expect(fieldPathText('mark.grader_id', 'zh-CN')).toBe('评分 › 阅卷人');
    expect(fieldPathText('mark.grader_id', 'en-US')).toBe('Mark › Grader');
    expect(fieldPathText('sections[1].title', 'zh-CN')).toBe('部分 #2 › 标题');
    expect(fieldPathText('draft.sections[0].items[2].points', 'en-US')).toBe(
      'Draft › Sections #1 › Questions #3 › Points',
    );
  });

  it('shows a key it does not know as written', () => {
    expect(fieldPathText('settings.is_paste', 'zh-CN')).toBe('设置 › is_paste');
    expect(fieldPathText('constructor', 'zh-CN')).toBe('constructor');
  });

  it('knows a time field by its key', () => {
    expect(isTimeField('created_at')).toBe(true);
    expect(isTimeField('mark.marked_at')).toBe(true);
    expect(isTimeField('created')).toBe(false);
    expect(isTimeField('points')).toBe(false);
  });
});
