/**
 * What a fresh app of the emulator's seed has, which the testing mocks assume too: its primary
 * region (where a volume that names none is made) and its organization.
 * @module
 */

/** The seed app's primary region. */
export const DEFAULT_REGION = "iad";
/** The seed app's organization (its slug appears in a hostname's ownership TXT value). */
export const DEFAULT_ORG = "personal";
