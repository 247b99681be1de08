import { describe, expect, it } from 'vitest';
import {
  DEFAULT_INVITATION_TEMPLATE,
  DEFAULT_REMINDER_TEMPLATE,
  renderSmsTemplate,
  SMS_TEMPLATE_MAX,
  smsTemplateProblems,
} from './smsTemplate.js';

describe('SMS templates', () => {
  it('accepts the default templates', () => {
    expect(smsTemplateProblems(DEFAULT_INVITATION_TEMPLATE)).toEqual([]);
    expect(smsTemplateProblems(DEFAULT_REMINDER_TEMPLATE)).toEqual([]);
  });

  it('names what is wrong: empty, too long, an unknown placeholder, no link', () => {
    expect(smsTemplateProblems('  ')).toEqual(['empty', 'no_link']);
    expect(smsTemplateProblems(`{link}${'x'.repeat(SMS_TEMPLATE_MAX)}`)).toEqual(['too_long']);
    expect(smsTemplateProblems('Hi {nmae}, {link} {nmae}')).toEqual(['unknown:nmae']);
    expect(smsTemplateProblems('Hi {name}')).toEqual(['no_link']);
  });

  it('fills every placeholder, each as often as it appears', () => {
    expect(
      renderSmsTemplate('{name}: {exam} {start}-{end} {link} ({name})', {
        name: '张三',
        exam: '校招笔试',
        start: '2026-12-01 09:00',
        end: '2026-12-01 11:00',
        link: 'https://x/exam/1/2',
      }),
    ).toBe('张三: 校招笔试 2026-12-01 09:00-2026-12-01 11:00 https://x/exam/1/2 (张三)');
    expect(renderSmsTemplate('{name}|{link}', { link: 'L' })).toBe('|L');
  });
});
