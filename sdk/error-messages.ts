/**
 * Reading the platform's error messages: which thing a 404 says is missing. Used by the errors
 * of every family (./errors, ./postgres-errors).
 * @module
 */

const NOT_FOUND_SUBJECTS = [
  "app",
  "volume",
  "cluster",
  "user",
  "hostname",
  "certificate",
  "snapshot",
  "task",
];

/** Which thing a 404 message says is missing, when it says so. */
export function notFoundSubject(message: string): string | undefined {
  const lower = unquoted(message);
  if (!lower.includes("not found")) return undefined;
  // The subject is the named thing closest before "not found" ("user x not found in cluster y").
  const before = lower.slice(0, lower.indexOf("not found"));
  let best: string | undefined;
  let bestAt = -1;
  for (const subject of NOT_FOUND_SUBJECTS) {
    const at = before.lastIndexOf(subject);
    if (at > bestAt) {
      best = subject;
      bestAt = at;
    }
  }
  return best === "certificate" ? "hostname" : best;
}

/** Lower-cased message without its quoted names, so a user called "cluster" cannot mislead. */
export function unquoted(message: string): string {
  return message.replace(/"[^"]*"/g, '""').toLowerCase();
}
