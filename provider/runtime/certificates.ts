/**
 * What both certificate kinds share: mapping hostname records to outputs, waiting for `active`,
 * reading a kind back on refresh, and deleting one kind so that removing the last kind also
 * removes the hostname.
 *
 * Coordination of the two kinds on one hostname: each delete reads the hostname first. When the
 * other kind is absent it deletes the whole hostname (spec 4.2 rule 5). When the other kind is
 * present it deletes only its own kind and looks at the response: if the other kind has gone
 * meanwhile (both resources deleted at once, as `pulumi destroy` does), it deletes the hostname
 * too. Since the platform applies requests one after another, the later of two concurrent deletes
 * always sees that nothing is left, so no hostname outlives its last certificate.
 * @module
 */
import {
  AmbiguousRequestError,
  type CertificateCheckResponse,
  type CertificateDetails,
  RETRY_POLICY,
  TimeoutError,
} from "../../sdk";
import type { OutputValues } from "../declaration";
import { certificateReport } from "../declarations/certificate-mapping";
import type { acmeCertificateDeclaration } from "../declarations/certificates";
import { clean, pick } from "../json-values";
import { DEFAULT_CERTIFICATE_WAIT_SECONDS } from "../validation/certificate";
import { platformClient } from "./credentials";
import { explain, isMissing } from "./errors";
import { KEEP_WAITING, keptInStack, waitMs } from "./kept-in-stack";

type Props = Record<string, unknown>;

/** The two kinds of certificate a hostname can hold. */
export type CertificateKind = "acme" | "custom";

/** What sets one certificate resource apart from the other in the shared steps below. */
export interface CertificateResourceKind {
  kind: CertificateKind;
  /** Inputs kept in the outputs as given, and handed back as inputs on refresh. */
  stored: readonly string[];
  /** The resource's outputs from a hostname record; `previous` fills what the record omits. */
  outputs(details: CertificateDetails, inputs: Props, previous?: Props): Props;
}

/** Whether the hostname holds a custom certificate. */
export function hasCustom(details: CertificateDetails): boolean {
  return details.certificates.some((c) => c.source === "custom");
}

/** Whether the hostname holds the kind. */
export function hasKind(details: CertificateDetails, kind: CertificateKind): boolean {
  return kind === "acme" ? details.acme_requested : hasCustom(details);
}

function otherKind(kind: CertificateKind): CertificateKind {
  return kind === "acme" ? "custom" : "acme";
}

/** Outputs shared by both kinds, from a hostname record (the check's `dns_records` are left out). */
export function certificateOutputs(
  details: CertificateDetails,
  inputs: Props,
  storedKeys: readonly string[],
  previous: Props = {},
): OutputValues<typeof acmeCertificateDeclaration> {
  return clean({
    ...pick(inputs, storedKeys),
    app: inputs.app as string,
    ...certificateReport(details),
    // The platform leaves dns_provider out when it has not detected one; keep what was known.
    dnsProvider:
      details.dns_provider ?? (typeof previous.dnsProvider === "string" ? previous.dnsProvider : null),
  });
}

/** Reads the hostname record, or undefined when the hostname does not exist. */
export async function getHostname(app: string, hostname: string): Promise<CertificateDetails | undefined> {
  try {
    return await platformClient().certificates.get(app, hostname);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw explain(err, `reading hostname ${hostname} (app ${app})`);
  }
}

/** How many times an idempotent certificate POST is sent while its answers keep getting lost. */
const AMBIGUOUS_ATTEMPTS = RETRY_POLICY.lostAnswerAttempts;

/**
 * Sends an idempotent certificate POST (an ACME request, a custom import: the platform answers a
 * repeat with the same record) whose answer may be lost. After a lost answer it looks at the
 * hostname and takes what `landed` recognises as exactly this call's effect, else sends the call
 * again. When every answer is lost, the resource is kept in the stack under its hostname (a
 * ResourceInitError), so the next `up` finishes it instead of meeting a hostname it does not own.
 * Other errors are rethrown as they are.
 */
export async function postIdempotent(
  resource: CertificateResourceKind,
  inputs: Props,
  action: string,
  post: () => Promise<CertificateDetails>,
  landed: (details: CertificateDetails) => boolean,
): Promise<CertificateDetails> {
  const app = String(inputs.app);
  const hostname = String(inputs.hostname);
  let lost: AmbiguousRequestError | undefined;
  for (let attempt = 0; attempt < AMBIGUOUS_ATTEMPTS; attempt++) {
    try {
      return await post();
    } catch (err) {
      if (!(err instanceof AmbiguousRequestError)) throw err;
      lost = err;
    }
    const now = await getHostname(app, hostname).catch(() => undefined);
    if (now && landed(now)) return now;
  }
  throw keptInStack(
    hostname,
    { ...pick(inputs, resource.stored), app, hostname },
    inputs,
    `${action} failed: the answer was lost ${AMBIGUOUS_ATTEMPTS} times (${lost?.message}). The hostname is kept in the stack; the next \`pulumi up\` looks again and finishes it`,
  );
}

async function deleteHostname(app: string, hostname: string): Promise<void> {
  try {
    await platformClient().certificates.delete(app, hostname);
  } catch (err) {
    if (isMissing(err)) return;
    throw explain(err, `deleting hostname ${hostname} (app ${app})`);
  }
}

/**
 * Removes one kind of certificate from the hostname; removes the hostname itself when no other
 * kind is left. Already gone counts as done.
 */
export async function removeKind(app: string, hostname: string, kind: CertificateKind): Promise<void> {
  const details = await getHostname(app, hostname);
  if (!details) return;
  if (!hasKind(details, otherKind(kind))) return deleteHostname(app, hostname);
  if (!hasKind(details, kind)) return;
  const certs = platformClient().certificates;
  let after: CertificateDetails | undefined;
  try {
    after = kind === "acme" ? await certs.deleteAcme(app, hostname) : await certs.deleteCustom(app, hostname);
  } catch (err) {
    if (!isMissing(err)) throw explain(err, `deleting the ${kind} certificate of ${hostname} (app ${app})`);
    after = await getHostname(app, hostname);
  }
  if (after && !hasKind(after, otherKind(kind))) await deleteHostname(app, hostname);
}

function describePending(
  details: CertificateDetails & { dns_records?: Record<string, unknown> | null },
  kind: CertificateKind,
): string {
  const v = details.validation;
  const missing = Object.entries({
    dns_configured: v.dns_configured,
    alpn_configured: v.alpn_configured,
    http_configured: v.http_configured,
    ownership_txt_configured: v.ownership_txt_configured,
  })
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  const req = details.dns_requirements;
  const parts = [`status is still "${details.status}"`];
  if (missing.length > 0) parts.push(`not yet verified: ${missing.join(", ")}`);
  if (kind === "custom" || !v.ownership_txt_configured) {
    parts.push(`ownership needs TXT ${req.ownership.name} = "${req.ownership.app_value}"`);
  }
  if (kind === "acme") {
    const targets = [
      ...req.a.map((a) => `A ${a}`),
      ...req.aaaa.map((a) => `AAAA ${a}`),
      `or CNAME ${req.cname}`,
    ];
    parts.push(
      `ACME needs ${details.hostname} → ${targets.join(", ")}, or CNAME ${req.acme_challenge.name} → ${req.acme_challenge.target}`,
    );
  }
  if (details.dns_records) parts.push(`DNS seen: ${JSON.stringify(details.dns_records)}`);
  if (details.validation_errors.length > 0)
    parts.push(`validation errors: ${JSON.stringify(details.validation_errors)}`);
  return parts.join("; ");
}

/**
 * Waits until the hostname is active when the inputs ask for it (`waitForActive`). The certificate
 * exists by then, so when the wait fails (a timeout, or a check that keeps failing) it is kept in
 * the stack (a ResourceInitError with id `id`, its message naming what is pending or what failed):
 * nothing leaks, and the next `up` waits again.
 */
export async function waitIfRequested(
  resource: CertificateResourceKind,
  details: CertificateDetails,
  inputs: Props,
  id: string,
): Promise<CertificateDetails> {
  if (inputs.waitForActive !== true || details.status === "active") return details;
  const app = String(inputs.app);
  const { hostname } = details;
  const timeoutMs = waitMs(inputs.waitTimeoutSeconds, DEFAULT_CERTIFICATE_WAIT_SECONDS);
  try {
    const { dns_records: _seen, ...active } = await platformClient().certificates.waitUntilActive(
      app,
      hostname,
      { timeoutMs },
    );
    return active;
  } catch (err) {
    const message =
      err instanceof TimeoutError
        ? `${resource.kind} certificate of ${hostname} (app ${app}) did not become active within ${timeoutMs / 1000} s (waitTimeoutSeconds): ${describePending((err.lastSeen as CertificateCheckResponse | undefined) ?? details, resource.kind)}. ${KEEP_WAITING}`
        : `${explain(err, `checking DNS of ${hostname} (app ${app})`).message}. The ${resource.kind} certificate exists. ${KEEP_WAITING}`;
    throw keptInStack(id, resource.outputs(details, inputs), inputs, message);
  }
}

function hostnameOf(id: string, props: Props): string {
  return typeof props.hostname === "string" ? props.hostname : id;
}

/** Reads the hostname back; gone when the hostname is deleted or no longer holds the kind. */
export async function readCertificate(
  resource: CertificateResourceKind,
  id: string,
  props: Props,
): Promise<{ id: string; props: Props; inputs?: Props }> {
  const details = await getHostname(String(props.app), hostnameOf(id, props));
  if (!details || !hasKind(details, resource.kind)) return { id: "", props: {} };
  const outs = resource.outputs(details, props, props);
  // The inputs that describe the resource now, so that refresh does not invent diffs.
  const inputs: Props = { app: outs.app, hostname: outs.hostname };
  for (const key of resource.stored) if (outs[key] !== undefined) inputs[key] = outs[key];
  return { id, props: outs, inputs };
}

/** Removes the resource's kind from its hostname, and the hostname when no other kind remains. */
export async function removeCertificate(
  resource: CertificateResourceKind,
  id: string,
  props: Props,
): Promise<void> {
  await removeKind(String(props.app), hostnameOf(id, props), resource.kind);
}
