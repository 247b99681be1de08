import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { toggleChoice } from './choice.js';
import { Checkbox, CheckboxGroup, Radio, RadioGroup } from './ChoiceGroup.js';

describe('toggleChoice', () => {
  const order = ['A', 'B', 'C', 'D'];
  it("keeps the picks in the options' order, whatever order they were ticked in", () => {
    expect(toggleChoice(['C'], 'A', true, order)).toEqual(['A', 'C']);
    expect(toggleChoice(['A', 'C'], 'B', true, order)).toEqual(['A', 'B', 'C']);
  });

  it('unticks, and never repeats a pick', () => {
    expect(toggleChoice(['A', 'C'], 'A', false, order)).toEqual(['C']);
    expect(toggleChoice(['A'], 'A', true, order)).toEqual(['A']);
  });

  it('puts a value that is not an option last', () => {
    expect(toggleChoice(['Z'], 'B', true, order)).toEqual(['B', 'Z']);
  });
});

describe('the choice groups', () => {
  it('are a labelled radiogroup of native radios sharing a name, the value checked', () => {
    const html = renderToStaticMarkup(
      createElement(RadioGroup, {
        'aria-label': 'Question 1',
        name: 'q1',
        value: 'B',
        onChange: () => undefined,
        children: ['A', 'B'].map((v) => createElement(Radio, { key: v, value: v, children: v })),
      }),
    );
    expect(html).toMatch(/^<div role="radiogroup" aria-label="Question 1">/);
    expect(html.match(/<input type="radio" name="q1"/g)).toHaveLength(2);
    expect(html).toContain('<input type="radio" name="q1" checked="" value="B"/>');
    expect(html.match(/checked=""/g)).toHaveLength(1);
    // Each option is a label around its input, so the option's text names the radio.
    expect(html).toMatch(/<label[^>]*><input type="radio" name="q1" value="A"\/>.*A<\/span><\/label>/);
  });

  it('give a radio group without a name one of its own, so its arrow keys stay inside it', () => {
    const html = renderToStaticMarkup(
      createElement(RadioGroup, {
        'aria-labelledby': 'h',
        value: undefined,
        onChange: () => undefined,
        children: createElement(Radio, { value: 'A', children: 'A' }),
      }),
    );
    expect(html).toMatch(/<input type="radio" name="[^"]+" value="A"\/>/);
  });

  it('are a labelled group of native check boxes, each value checked', () => {
    const html = renderToStaticMarkup(
      createElement(CheckboxGroup, {
        'aria-label': 'Question 2',
        value: ['A', 'C'],
        order: ['A', 'B', 'C'],
        onChange: () => undefined,
        children: ['A', 'B', 'C'].map((v) => createElement(Checkbox, { key: v, value: v, children: v })),
      }),
    );
    expect(html).toMatch(/^<div role="group" aria-label="Question 2">/);
    expect(html.match(/type="checkbox"/g)).toHaveLength(3);
    expect(html.match(/checked=""/g)).toHaveLength(2);
  });
});
