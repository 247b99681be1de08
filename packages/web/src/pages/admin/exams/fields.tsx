/** Small pieces the editor's panels share: a field that shows its schema problem, a switch, and the panel props. */
import { Switch, Typography } from 'antd';
import { Form } from '../../../shell/Form.js';
import type { ReactNode } from 'react';
import type { DraftEditor } from './useDraftEditor.js';

/** What every editor panel gets: the editor state, and whether the author may change anything. */
export interface PanelProps {
  editor: DraftEditor;
  readOnly: boolean;
}

/**
 * A labelled field of the draft that shows the schema's problem at `problem` under it as the author types;
 * `htmlFor` names the control so the label reads with it.
 */
export function Field(props: {
  label: ReactNode;
  problem: string | undefined;
  htmlFor?: string;
  extra?: ReactNode;
  children: ReactNode;
  required?: boolean;
}) {
  return (
    <Form.Item
      label={props.label}
      htmlFor={props.htmlFor}
      required={props.required}
      validateStatus={props.problem ? 'error' : undefined}
      help={props.problem}
      extra={props.extra}
    >
      {props.children}
    </Form.Item>
  );
}

/** A switch with its label and what it does. */
export function Toggle(props: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (v: boolean) => void;
  testId: string;
}) {
  const id = `toggle-${props.testId}`;
  return (
    <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start', marginBottom: 12 }}>
      <Switch
        id={id}
        checked={props.checked}
        onChange={props.onChange}
        data-testid={props.testId}
        aria-describedby={`${id}-hint`}
      />
      <div>
        <label htmlFor={id}>{props.label}</label>
        <Typography.Paragraph type="secondary" id={`${id}-hint`} style={{ margin: 0 }}>
          {props.hint}
        </Typography.Paragraph>
      </div>
    </div>
  );
}
