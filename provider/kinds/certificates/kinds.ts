/**
 * `AcmeCertificate` and `CustomCertificate`: their definitions, the registry's rows (../definition). What they are
 * (./declarations, ./mapping) and the rules both doors apply (day-2 warnings, import ids); what
 * they do at the platform is ./runtime, over the one hostname runtime (./hostname-runtime).
 * @module
 */
import { type ImportRule, known, type LifetimeRule, NO_LIFETIME_WARNINGS } from "../../model/kind-rules";
import { certificateExpiryWarning, DEFAULT_EXPIRY_WARNING_DAYS } from "../../model/lifetime";
import { type KindRecovery, nonEmpty } from "../../model/recovery";
import type { RuntimeProvider } from "../../runtime/define";
import { acmeCertificateDeclaration, customCertificateDeclaration } from "./declarations";

/**
 * `recover`'s rule: a pending create made the hostname's certificate of the kind when the
 * hostname holds one that no resource of the stack owns.
 */
function certificateRecovery(kind: "acmeCertificate" | "customCertificate"): KindRecovery {
  const label = kind === "acmeCertificate" ? "ACME certificate" : "custom certificate";
  return {
    owned: (r, props) => `${String(props.app)}/${String(props.hostname ?? r.id)}/${kind}`,
    async find(inputs, app, { platform, free }) {
      const hostname = nonEmpty(inputs.hostname) ?? "";
      const key = `${app}/${hostname}/${kind}`;
      const found = await platform.hostname(app, hostname);
      const has = kind === "acmeCertificate" ? found?.acme : found?.custom;
      if (!has) return { none: `${hostname} holds no such certificate` };
      if (!free(key)) return { none: `${hostname} is owned by another resource of the stack` };
      const what = `the ${label} of ${hostname}`;
      return { candidates: [{ key, id: hostname, what, brief: what }] };
    },
  };
}

/** Both kinds' runtime (./runtime), required when called. */
const runtimes = () => require("./runtime") as typeof import("./runtime");
/** Both kinds' mocks (./mock), required when called. */
const mocks = () => require("./mock") as typeof import("./mock");

/** `<app>/<hostname>`: the hostname's ACME request. */
const acmeImporting: ImportRule = { idName: "hostname", state: (app, hostname) => ({ app, hostname }) };

/** The ACME certificate kind: the platform renews it, so time passing needs nobody. */
export const acmeCertificateKind = {
  key: "acmeCertificate",
  type: "AcmeCertificate",
  noun: "certificate",
  declaration: acmeCertificateDeclaration,
  lifetime: NO_LIFETIME_WARNINGS,
  importing: acmeImporting,
  recovery: certificateRecovery("acmeCertificate"),
  clients: ["certificates"],
  runtime: (): RuntimeProvider => runtimes().acmeCertificate,
  mock: () => mocks().acmeCertificateMock,
} as const;

/** A custom certificate about to expire (from `expiryWarningDays` before), or expired. */
const customLifetime: LifetimeRule = [
  {
    reads: ["hostname", "expiresAt"],
    given: ["expiryWarningDays"],
    warning(_id, olds, news, now) {
      const days =
        typeof news.expiryWarningDays === "number" ? news.expiryWarningDays : DEFAULT_EXPIRY_WARNING_DAYS;
      return known(olds.hostname) && known(olds.expiresAt)
        ? certificateExpiryWarning(olds.hostname, olds.expiresAt, now, days)
        : undefined;
    },
  },
];

/**
 * Refused: the platform never returns a custom certificate's chain or key (spec 2.5), so an import
 * could not record the inputs its check requires (the CLI would report inputs failing check as a
 * provider bug). The message names the way in: adoption.
 */
const customImporting: ImportRule = {
  refusal: (hostname) =>
    `a CustomCertificate cannot be imported: the platform never returns its certificate chain or private key, so an import could not record fullchain and privateKey. ` +
    `Declare it in the program with its fullchain, its privateKey (from a secret) and adoptExisting: true; the next \`pulumi up\` takes the certificate on ${hostname || "<hostname>"} under management (a certificate that is your chain's leaf is kept as it is, with no request that changes it). See docs/adopt.md.`,
};

/** The custom certificate kind. */
export const customCertificateKind = {
  key: "customCertificate",
  type: "CustomCertificate",
  noun: "certificate",
  declaration: customCertificateDeclaration,
  lifetime: customLifetime,
  importing: customImporting,
  recovery: certificateRecovery("customCertificate"),
  clients: ["certificates"],
  runtime: (): RuntimeProvider => runtimes().customCertificate,
  mock: () => mocks().customCertificateMock,
} as const;
