import { z } from "zod";
import type { StorePart } from "./context";

export const DnsRecordTypeSchema = z.enum(["A", "AAAA", "CNAME", "TXT"]);
export const DnsRecordSchema = z.object({
  type: DnsRecordTypeSchema,
  name: z.string().min(1),
  value: z.string().min(1),
});
export type DnsRecord = z.infer<typeof DnsRecordSchema>;
export type DnsRecordType = z.infer<typeof DnsRecordTypeSchema>;

const normalize = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

/**
 * The simulated DNS that certificate checks resolve against. One record per name and type:
 * setting a record replaces the previous value of that name and type.
 */
export class SimulatedDns implements StorePart<{ dns: DnsRecord[] }> {
  private records = new Map<string, DnsRecord>();

  constructor(private readonly changed: () => void = () => {}) {}

  set(records: DnsRecord[]): void {
    for (const r of records) {
      const record = { type: r.type, name: normalize(r.name), value: r.value.trim() };
      this.records.set(`${record.type} ${record.name}`, record);
    }
    this.changed();
  }

  reset(): void {
    this.clear();
  }

  serialize() {
    return { dns: this.list() };
  }

  load(state: { dns: DnsRecord[] }): void {
    this.set(state.dns);
  }

  clear(): void {
    this.records.clear();
    this.changed();
  }

  list(): DnsRecord[] {
    return [...this.records.values()];
  }

  lookup(type: DnsRecordType, name: string): string | undefined {
    return this.records.get(`${type} ${normalize(name)}`)?.value;
  }

  /** Whether any record is named `zone` or a name under it. */
  hasZone(zone: string): boolean {
    const z = normalize(zone);
    for (const r of this.records.values()) if (r.name === z || r.name.endsWith(`.${z}`)) return true;
    return false;
  }

  /** Follows CNAMEs (at most 8 hops) and returns the final name and every name on the way. */
  follow(name: string): { final: string; chain: string[] } {
    const chain: string[] = [];
    let current = normalize(name);
    for (let i = 0; i < 8; i++) {
      const next = this.lookup("CNAME", current);
      if (!next) break;
      current = normalize(next);
      chain.push(current);
    }
    return { final: current, chain };
  }
}
