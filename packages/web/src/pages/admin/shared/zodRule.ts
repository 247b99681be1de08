/**
 * Form rules from the contract's Zod schemas, so a console form refuses as the author types exactly what
 * the server would refuse. Framework-free apart from the rule's shape.
 */

/** What a rule needs of a schema: Zod's safeParse (the web app takes the schemas from the contract). */
export interface Schema {
  safeParse(
    value: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** An antd form rule that checks a field with a validator. */
export interface ValidatorRule {
  validator: (rule: unknown, value: unknown) => Promise<void>;
}

/** The first problem a schema finds in a value, or null when it passes. */
export function firstProblem(schema: Schema, value: unknown): string | null {
  const parsed = schema.safeParse(value);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  if (!issue) return 'invalid';
  const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return `${where}${issue.message}`;
}

/**
 * A rule that passes when `schema` accepts the field's value (after `map`, e.g. '' to undefined). The shown
 * text is `message` when given (the page's language), else the schema's own.
 */
export function zodRule(schema: Schema, message?: string, map: (value: unknown) => unknown = (v) => v): ValidatorRule {
  return {
    validator: (_rule, value) => {
      const problem = firstProblem(schema, map(value));
      return problem === null ? Promise.resolve() : Promise.reject(new Error(message ?? problem));
    },
  };
}
