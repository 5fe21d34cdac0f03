/**
 * The DNS records the platform asks for a custom hostname (spec 4.2: A, AAAA, CNAME, the ACME
 * challenge and the ownership TXT record), made up stably per app and organization. The
 * emulator answers with them and the testing mocks record them, so both agree.
 * @module
 */
import type { DnsRequirements } from "../schemas";
import { stableHex } from "./ids";

/** The name DNS records hang off: a wildcard's records live at its base domain. */
export const baseName = (hostname: string) => hostname.replace(/^\*\./, "");

/** Stable fake addresses and values per app (documentation IP ranges, never routable). */
export function dnsRequirements(app: string, org: string, hostname: string): DnsRequirements {
  const base = baseName(hostname);
  return {
    a: [`203.0.113.${1 + (Number.parseInt(stableHex(2, "a", app), 16) % 254)}`],
    aaaa: [`2001:db8::${stableHex(4, "aaaa", app)}`],
    cname: `${app}.platform.internal`,
    acme_challenge: {
      name: `_acme-challenge.${base}`,
      target: `${base}.${stableHex(6, "acme", app)}.acme.platform.internal`,
    },
    ownership: {
      name: `_platform-ownership.${base}`,
      app_value: `app-${stableHex(20, "app", app)}`,
      org_value: `org-${stableHex(20, "org", org)}`,
    },
  };
}
