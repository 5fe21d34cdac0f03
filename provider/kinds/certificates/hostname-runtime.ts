/**
 * One runtime for both certificate kinds: create, read, update and delete of a hostname's ACME
 * request or custom certificate, with what sets a kind apart given as data
 * ({@link CertificateKindSpec}, ./runtime).
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
  ApiError,
  type CertificateCheckResponse,
  type CertificateDetails,
  lookVerdict,
  lostAnswerText,
  RETRY_POLICY,
  sendLookingAfterLoss,
  TimeoutError,
} from "../../../sdk";
import { type InputValues, type OutputValues, storedInputs } from "../../model/declaration";
import { clean, pick } from "../../model/json-values";
import { DEFAULT_CERTIFICATE_WAIT_SECONDS } from "../../model/validation/certificate";
import { platformClient } from "../../runtime/credentials";
import {
  type CheckedInputs,
  defineProvider,
  type EngineProps,
  type Outs,
  type RecordedOutputs,
  type RuntimeProvider,
} from "../../runtime/define";
import { explain, isMissing, ResourceInitError } from "../../runtime/errors";
import { KEEP_WAITING, keptInStack, providerOf, waitMs } from "../../runtime/kept-in-stack";
import { warnOfCall } from "../../runtime/warnings";
import type { acmeCertificateDeclaration, customCertificateDeclaration } from "./declarations";
import { certificateReport } from "./mapping";

/** The two kinds of certificate a hostname can hold. */
export type CertificateKind = "acme" | "custom";

/** The declaration of either kind. */
export type CertificateDeclaration = typeof acmeCertificateDeclaration | typeof customCertificateDeclaration;

type AcmeDeclaration = typeof acmeCertificateDeclaration;

/**
 * A kind's checked inputs, with the inputs both kinds take (the compiler cannot see those
 * through a generic declaration; both declarations have them).
 */
export type CertificateInputs<D extends CertificateDeclaration> = CheckedInputs<D> &
  CheckedInputs<AcmeDeclaration>;

/** The previous outputs of a certificate resource; every release recorded its app. */
export type CertificateState<D extends CertificateDeclaration> = RecordedOutputs<D> &
  RecordedOutputs<AcmeDeclaration> & { app: string };

/** The outputs a kind adds to the ones both declare. */
export type ExtraOutputs<D extends CertificateDeclaration> = Omit<
  OutputValues<D>,
  keyof OutputValues<AcmeDeclaration>
>;

/** What sets one certificate kind apart: data, read by the one flow below. */
export interface CertificateKindSpec<D extends CertificateDeclaration> {
  readonly kind: CertificateKind;
  readonly declaration: D;
  /** What sending it is, for messages (`requesting an ACME certificate for ...`). */
  action(app: string, hostname: string): string;
  /** The platform call that requests or imports it (idempotent: a repeat answers the same record). */
  post(inputs: CertificateInputs<D>): Promise<CertificateDetails>;
  /** The platform call that removes this kind only, keeping the hostname. */
  remove(app: string, hostname: string): Promise<CertificateDetails>;
  /** Whether the hostname holds exactly what the inputs ask for (a lost answer's call landed). */
  landed(details: CertificateDetails, inputs: CertificateInputs<D>): boolean;
  /**
   * Whether a create takes a hostname that already holds exactly this without `adoptExisting`
   * (a custom import whose answer was lost left it); else only with it (an ACME request).
   */
  readonly takesLanded: boolean;
  /** The create's refusal of a hostname that holds this kind already, without `adoptExisting`. */
  refusal(app: string, hostname: string): string;
  /** Inputs whose change sends it again in place (a new chain or key). */
  readonly resendOn: readonly (keyof InputValues<D> & string)[];
  /** A 409 refusal of the call is met by removing the kind and sending it again. */
  readonly clearsOnConflict: boolean;
  /** What to do about a failed call. */
  advice(err: unknown): string | undefined;
  /** The outputs this kind adds, from the record and the inputs (or previous outputs). */
  extraOutputs(
    details: CertificateDetails,
    source: CertificateInputs<D> | CertificateState<D>,
  ): ExtraOutputs<D>;
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

/**
 * A kind's outputs from a hostname record: its stored inputs, the app, the record as both kinds
 * report it (./mapping) and the kind's own. `previous` fills what the
 * record omits.
 */
function outputs<D extends CertificateDeclaration>(
  spec: CertificateKindSpec<D>,
  details: CertificateDetails,
  source: CertificateInputs<D> | CertificateState<D>,
  previous: { readonly dnsProvider?: string | null | undefined } = {},
): Outs<D> {
  const stored = storedInputs(spec.declaration);
  return clean({
    ...pick<EngineProps, string>(source, stored),
    app: source.app,
    ...certificateReport(details),
    // The platform leaves dns_provider out when it has not detected one; keep what was known.
    dnsProvider: details.dns_provider ?? previous.dnsProvider ?? null,
    ...spec.extraOutputs(details, source),
  }) as unknown as Outs<D>; // shared + stored + the kind's own: all of OutputValues<D>, which a generic D hides
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

/**
 * Sends the kind's idempotent POST (an ACME request, a custom import: the platform answers a
 * repeat with the same record) whose answer may be lost, by the sdk's one rule
 * (`sendLookingAfterLoss`): after a lost answer it looks at the hostname and takes what `landed`
 * recognises as exactly this call's effect, else sends the call again. When every answer is
 * lost, the resource is kept in the stack under its hostname (a ResourceInitError), so the next
 * `up` finishes it instead of meeting a hostname it does not own. Other errors are rethrown.
 */
async function postIdempotent<D extends CertificateDeclaration>(
  spec: CertificateKindSpec<D>,
  inputs: CertificateInputs<D>,
  action: string,
): Promise<CertificateDetails> {
  const { app, hostname } = inputs;
  try {
    return await sendLookingAfterLoss(
      () => spec.post(inputs),
      async (_sentAt, lost) => {
        const now = await getHostname(app, hostname).catch(() => undefined);
        // The retry policy's one rule (lookVerdict): a hostname holds at most one of each kind,
        // so the look finds one candidate or none; one is taken, and the run says so.
        const verdict = lookVerdict(now && spec.landed(now, inputs) ? [now] : []);
        if (verdict.take !== "one") return undefined;
        warnOfCall(
          `${action}: the answer was lost (${lostAnswerText(lost)}); hostname ${hostname} of app ${app} now holds exactly what was asked, so that is taken as this request's result. If another stack manages the same hostname, both share one certificate at the platform, and deleting either removes it for both`,
        );
        return verdict.candidate;
      },
    );
  } catch (err) {
    if (!(err instanceof AmbiguousRequestError)) throw err;
    throw keptInStack(
      hostname,
      { ...pick<EngineProps, string>(inputs, storedInputs(spec.declaration)), app, hostname },
      inputs,
      `${action} failed: the answer was lost ${RETRY_POLICY.lostAnswerAttempts} times (${err.message}). The hostname is kept in the stack; the next \`pulumi up\` looks again and finishes it`,
    );
  }
}

/**
 * Requests or imports the kind. When the platform refuses it with 409 and the kind says so (a
 * second custom import over an existing one), the kind is removed first and sent again; the
 * hostname stays (spec 4.2 rule 7).
 */
async function send<D extends CertificateDeclaration>(
  spec: CertificateKindSpec<D>,
  inputs: CertificateInputs<D>,
): Promise<CertificateDetails> {
  const { app, hostname } = inputs;
  const action = spec.action(app, hostname);
  try {
    return await postIdempotent(spec, inputs, action);
  } catch (err) {
    if (err instanceof ResourceInitError) throw err;
    if (!(spec.clearsOnConflict && err instanceof ApiError && err.status === 409))
      throw explain(err, action, spec.advice(err));
  }
  try {
    await spec.remove(app, hostname);
    return await postIdempotent(spec, inputs, action);
  } catch (err) {
    if (err instanceof ResourceInitError) throw err;
    throw explain(err, action, spec.advice(err));
  }
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
async function removeKind<D extends CertificateDeclaration>(
  spec: CertificateKindSpec<D>,
  app: string,
  hostname: string,
): Promise<void> {
  const { kind } = spec;
  const details = await getHostname(app, hostname);
  if (!details) return;
  if (!hasKind(details, otherKind(kind))) return deleteHostname(app, hostname);
  if (!hasKind(details, kind)) return;
  let after: CertificateDetails | undefined;
  try {
    after = await spec.remove(app, hostname);
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
async function waitIfRequested<D extends CertificateDeclaration>(
  spec: CertificateKindSpec<D>,
  details: CertificateDetails,
  inputs: CertificateInputs<D>,
  id: string,
): Promise<CertificateDetails> {
  if (inputs.waitForActive !== true || details.status === "active") return details;
  const { app } = inputs;
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
        ? `${spec.kind} certificate of ${hostname} (app ${app}) did not become active within ${timeoutMs / 1000} s (waitTimeoutSeconds): ${describePending((err.lastSeen as CertificateCheckResponse | undefined) ?? details, spec.kind)}. ${KEEP_WAITING}`
        : `${explain(err, `checking DNS of ${hostname} (app ${app})`).message}. The ${spec.kind} certificate exists. ${KEEP_WAITING}`;
    throw keptInStack(id, outputs(spec, details, inputs), inputs, message);
  }
}

/** The hostname of a resource: its id when an old state did not record it. */
function hostnameOf<D extends CertificateDeclaration>(id: string, state: CertificateState<D>): string {
  return state.hostname ?? id;
}

/**
 * Creates the kind on the hostname. A hostname that already holds exactly what the inputs ask for
 * is taken as it is (with `adoptExisting` unless the kind `takesLanded`); one that holds another
 * of this kind is refused without `adoptExisting`, else sent over.
 */
async function create<D extends CertificateDeclaration>(
  spec: CertificateKindSpec<D>,
  inputs: CertificateInputs<D>,
): Promise<{ id: string; outs: Outs<D> }> {
  const { app, hostname } = inputs;
  const existing = await getHostname(app, hostname);
  const adopting = inputs.adoptExisting === true;
  let details: CertificateDetails;
  if (existing && spec.landed(existing, inputs) && (spec.takesLanded || adopting)) {
    details = existing;
  } else if (existing && hasKind(existing, spec.kind) && !adopting) {
    throw new Error(spec.refusal(app, hostname));
  } else {
    details = await send(spec, inputs);
  }
  const id = hostname;
  details = await waitIfRequested(spec, details, inputs, id);
  return { id, outs: outputs(spec, details, inputs, existing ? { dnsProvider: existing.dns_provider } : {}) };
}

/**
 * Sends the kind again when an input it depends on changed (`resendOn`), or when the hostname no
 * longer holds it (removed elsewhere, or a create whose answers were all lost); records changed
 * wait settings, and waits when `waitForActive` is now true.
 */
async function update<D extends CertificateDeclaration>(
  spec: CertificateKindSpec<D>,
  id: string,
  olds: CertificateState<D>,
  news: CertificateInputs<D>,
): Promise<{ outs: Outs<D> }> {
  const withProvider = { ...news, ...providerOf(olds), ...providerOf(news) };
  let details: CertificateDetails | undefined;
  if (spec.resendOn.some((key) => olds[key] !== news[key])) {
    details = await send(spec, withProvider);
  } else {
    details = await getHostname(news.app, news.hostname);
    if (!details || !hasKind(details, spec.kind)) details = await send(spec, withProvider);
  }
  details = await waitIfRequested(spec, details, news, id);
  return { outs: outputs(spec, details, news, olds) };
}

/** Reads the hostname back; gone when the hostname is deleted or no longer holds the kind. */
async function read<D extends CertificateDeclaration>(
  spec: CertificateKindSpec<D>,
  id: string,
  state: CertificateState<D>,
): Promise<{ id: string; props: EngineProps; inputs?: EngineProps }> {
  const details = await getHostname(state.app, hostnameOf(id, state));
  if (!details || !hasKind(details, spec.kind)) return { id: "", props: {} };
  const outs = outputs(spec, details, state, state);
  // The inputs that describe the resource now, so that refresh does not invent diffs.
  const inputs: EngineProps = { app: outs.app, hostname: outs.hostname };
  for (const key of storedInputs(spec.declaration)) if (outs[key] !== undefined) inputs[key] = outs[key];
  return { id, props: outs, inputs };
}

/** The provider methods of a certificate kind. */
export function certificateProvider<D extends CertificateDeclaration>(
  spec: CertificateKindSpec<D>,
): RuntimeProvider {
  return defineProvider<D, CertificateState<D>>(spec.declaration, {
    /** Every release recorded the app (a required input); nothing else needs a default. */
    state: (recorded: RecordedOutputs<D> & RecordedOutputs<AcmeDeclaration>) => ({
      ...recorded,
      app: recorded.app ?? "",
    }),
    // Method parameters compare both ways: a kind's inputs do hold the common ones.
    create: (inputs: CertificateInputs<D>) => create(spec, inputs),
    read: (id, state) => read(spec, id, state),
    update: (id, olds, news: CertificateInputs<D>) => update(spec, id, olds, news),
    /** Removes the kind; removes the hostname too when no other kind remains. */
    delete: (id, state) => removeKind(spec, state.app, hostnameOf(id, state)),
  });
}
