/**
 * Hostname rules shared by both certificate kinds, and the SAN/CN matching of custom certificates.
 * @module
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A URL's scheme (`https://`), which a hostname does not have. */
const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/**
 * Why `hostname` is not acceptable as a certificate hostname, or undefined when it is: the words
 * after "hostname", saying the fix where there is one. A leading `*.` makes a wildcard; names are
 * lowercase so the platform's answers compare equal to inputs.
 */
export function hostnameProblem(hostname: string): string | undefined {
  const scheme = SCHEME.exec(hostname);
  if (scheme) {
    const host = hostOfUrl(hostname);
    const use = host && hostnameProblem(host) === undefined ? ` and use ${host}` : "";
    return `must be a name, not a URL: drop the scheme (${scheme[0]})${use}`;
  }
  if (hostname.length > 253) return "must be at most 253 characters";
  if (hostname !== hostname.toLowerCase()) {
    const lower = hostname.toLowerCase();
    const use = hostnameProblem(lower) === undefined ? `: use ${lower}` : "";
    return `must be lowercase${use}`;
  }
  if (hostname.endsWith(".")) {
    const trimmed = hostname.replace(/\.+$/, "");
    const use = trimmed && hostnameProblem(trimmed) === undefined ? `: use ${trimmed}` : "";
    return `must not end with a dot${use}`;
  }
  const labels = hostname.split(".");
  if (labels.length < 2) return "must have at least two labels (e.g. app.example.com)";
  const [first, ...rest] = labels;
  if (first === "*" && rest.length < 2)
    return "with a wildcard must cover a domain of at least two labels (*.example.com)";
  for (const [i, label] of labels.entries()) {
    if (label === "*" && i === 0) continue;
    if (label.includes("*")) return "may have a wildcard only as its whole first label (*.example.com)";
    if (!LABEL.test(label)) {
      return `label "${label}" must be 1 to 63 letters, digits or hyphens, not starting or ending with a hyphen`;
    }
  }
  return undefined;
}

/** The host of a URL, lowercase, or undefined when it has none. */
function hostOfUrl(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a certificate name (a SAN DNS entry or the CN) covers `hostname`. A certificate name
 * `*.example.com` covers exactly one extra label (`a.example.com`, not `a.b.example.com` nor
 * `example.com`); a wildcard hostname is only covered by the same wildcard.
 */
export function certificateNameCovers(certName: string, hostname: string): boolean {
  const name = certName.toLowerCase();
  const host = hostname.toLowerCase();
  if (name === host) return true;
  if (!name.startsWith("*.") || host.startsWith("*.")) return false;
  const dot = host.indexOf(".");
  return dot > 0 && host.slice(dot + 1) === name.slice(2);
}
