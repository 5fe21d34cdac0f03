/**
 * AcmeCertificate: requests ACME issuance for a hostname (spec 4.2), optionally waits until the
 * hostname is active, and removes only its kind on delete (see ./certificates).
 * @module
 */
import type { CertificateDetails } from "../../sdk";
import { storedInputs } from "../declaration";
import { type AcmeCertificateInputs, acmeCertificateDeclaration } from "../declarations/certificates";
import {
  type CertificateResourceKind,
  certificateOutputs,
  getHostname,
  postIdempotent,
  readCertificate,
  removeCertificate,
  waitIfRequested,
} from "./certificates";
import { platformClient } from "./credentials";
import { defineProvider } from "./define";
import { explain } from "./errors";
import { providerOf, ResourceInitError } from "./kept-in-stack";

type Props = Record<string, unknown>;

const STORED = storedInputs(acmeCertificateDeclaration);

function outputs(details: CertificateDetails, inputs: Props, previous: Props = {}): Props {
  return certificateOutputs(details, inputs, STORED, previous);
}

const ACME: CertificateResourceKind = { kind: "acme", stored: STORED, outputs };

/** Requests ACME issuance (or adopts an existing request with `adoptExisting`). */
async function create(inputs: Props): Promise<{ id: string; outs: Props }> {
  const { app, hostname, adoptExisting } = inputs as AcmeCertificateInputs;
  const existing = await getHostname(app, hostname);
  let details: CertificateDetails;
  if (existing?.acme_requested) {
    if (adoptExisting !== true) {
      throw new Error(
        `hostname ${hostname} of app ${app} already has an ACME certificate requested; set adoptExisting: true to manage it with this resource, or delete it first`,
      );
    }
    details = existing;
  } else {
    details = await requestAcme(inputs);
  }
  const id = hostname;
  details = await waitIfRequested(ACME, details, { ...inputs, ...providerOf(inputs) }, id);
  return { id, outs: outputs(details, inputs, existing ? outputs(existing, inputs) : {}) };
}

/**
 * Requests ACME issuance. The request is idempotent, so a lost answer is resolved by looking
 * (the hostname now requests ACME: it landed) or by asking again.
 */
async function requestAcme(inputs: Props): Promise<CertificateDetails> {
  const { app, hostname } = inputs as AcmeCertificateInputs;
  const action = `requesting an ACME certificate for ${hostname} (app ${app})`;
  try {
    return await postIdempotent(
      ACME,
      inputs,
      action,
      () => platformClient().certificates.requestAcme(app, hostname),
      (details) => details.acme_requested,
    );
  } catch (err) {
    throw err instanceof ResourceInitError ? err : explain(err, action);
  }
}

/** Reads the hostname; gone when the hostname is deleted or no longer requests ACME. */
async function read(id: string, props: Props): Promise<{ id: string; props: Props; inputs?: Props }> {
  return readCertificate(ACME, id, props);
}

/**
 * Records changed wait settings; waits when `waitForActive` is now true. A hostname that does not
 * request ACME (removed elsewhere, or a create whose answers were lost) is requested again.
 */
async function update(id: string, olds: Props, news: Props): Promise<{ outs: Props }> {
  const app = String(news.app);
  const hostname = String(news.hostname);
  let details = await getHostname(app, hostname);
  // Gone, or never landed (a create whose answers were all lost): request it again.
  if (!details?.acme_requested)
    details = await requestAcme({ ...news, ...providerOf(olds), ...providerOf(news) });
  details = await waitIfRequested(ACME, details, news, id);
  return { outs: outputs(details, news, olds) };
}

/** Removes the ACME request; removes the hostname too when no custom certificate remains. */
async function remove(id: string, props: Props): Promise<void> {
  await removeCertificate(ACME, id, props);
}

/** The provider methods of `AcmeCertificate`. */
export const acmeCertificate = defineProvider(acmeCertificateDeclaration, {
  create,
  read,
  update,
  delete: remove,
});
