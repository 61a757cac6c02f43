/**
 * An error's message as a log line or a terminal may show it: the innermost cause's (the driver's).
 * Drizzle wraps a driver error in a DrizzleQueryError whose own message lists the query's parameters
 * (password hashes, addresses, mail text); should one arrive without its cause, that list is cut off.
 */
export function errorText(error: unknown): string {
  let root = error;
  for (let depth = 0; depth < 5 && root instanceof Error && root.cause instanceof Error; depth++) {
    root = root.cause;
  }
  const message = root instanceof Error ? root.message : String(root);
  return message.replace(/\nparams: [\s\S]*$/, '\nparams: [redacted]');
}
