import type { DnsRecordsWire, DnsRequirements } from "../../sdk/schemas";
import { baseName } from "../../sdk/simulation/dns-requirements";
import type { SimulatedDns } from "../store/dns";

export interface DnsCheck {
  /** What resolves; a record that is missing is `null` (the response shaper decides its wire form). */
  records: DnsRecordsWire;
  /** A, AAAA or CNAME of the hostname lead to the app. */
  pointsAtApp: boolean;
  /** `_acme-challenge` CNAME equals the required target. */
  acmeChallenge: boolean;
  /** `_platform-ownership` TXT equals the app or org value. */
  ownership: boolean;
}

/** Resolves what the simulated DNS holds for a hostname and compares it with the requirements. */
export function checkDns(dns: SimulatedDns, hostname: string, req: DnsRequirements): DnsCheck {
  const name = hostname.toLowerCase();
  const a = listOf(dns.lookup("A", name));
  const aaaa = listOf(dns.lookup("AAAA", name));
  const { final, chain } = dns.follow(name);
  const resolved = new Set<string>([...a, ...aaaa]);
  if (final === req.cname) {
    for (const ip of [...req.a, ...req.aaaa]) resolved.add(ip);
  } else if (chain.length > 0) {
    for (const ip of listOf(dns.lookup("A", final))) resolved.add(ip);
    for (const ip of listOf(dns.lookup("AAAA", final))) resolved.add(ip);
  }
  const challenge = dns.lookup("CNAME", req.acme_challenge.name)?.replace(/\.$/, "") ?? null;
  const txt = dns.lookup("TXT", req.ownership.name) ?? null;
  const zone = zoneOf(name);
  const appIps = new Set([...req.a, ...req.aaaa]);
  return {
    records: {
      a,
      aaaa,
      cname: chain,
      resolved_addresses: [...resolved],
      // No record anywhere in the domain: it does not resolve, so it has no SOA either.
      soa: dns.hasZone(zone) ? `ns1.dns.emulator.invalid. hostmaster.${zone}. 1 7200 3600 1209600 300` : null,
      acme_challenge_cname: challenge,
      ownership_txt: txt,
    },
    pointsAtApp: chain.includes(req.cname) || [...resolved].some((ip) => appIps.has(ip)),
    acmeChallenge: challenge?.toLowerCase() === req.acme_challenge.target,
    ownership: txt !== null && (txt === req.ownership.app_value || txt === req.ownership.org_value),
  };
}

/** The domain a hostname belongs to, simplified to its last two labels (`a.b.example.com` → `example.com`). */
export const zoneOf = (hostname: string) => baseName(hostname).split(".").slice(-2).join(".");

const listOf = (value: string | undefined) => (value ? [value] : []);
