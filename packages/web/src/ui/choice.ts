/** The values of a check box group, kept in the options' order whatever order they were ticked in. */
export function toggleChoice(
  values: readonly string[],
  value: string,
  on: boolean,
  order: readonly string[],
): string[] {
  const next = new Set(values);
  if (on) next.add(value);
  else next.delete(value);
  const rank = (v: string) => {
    const i = order.indexOf(v);
    return i === -1 ? order.length : i;
  };
  return [...next].sort((a, b) => rank(a) - rank(b));
}
