/**
 * True when a database error is a unique constraint refusing a duplicate: PostgreSQL's SQLSTATE 23505 or
 * better-sqlite3's SQLITE_CONSTRAINT_UNIQUE. Services turn it into `conflict` when two requests race past
 * their own "does it exist" check.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
