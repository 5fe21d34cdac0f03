/**
 * Runs one step of a long lifecycle (up, refresh, update, destroy, ...): a failure rethrows the
 * same error with the step's name in front of its message, so the report says which step broke.
 */
export async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Error) {
      err.message = `step "${name}": ${err.message}`;
      throw err;
    }
    throw new Error(`step "${name}": ${String(err)}`, { cause: err });
  }
}
