import type { Stack, UpResult } from "@pulumi/pulumi/automation";

/** What a `pulumi up` left at the platform: the volumes, names made twice, and volumes the stack does not record. */
export interface Tally<V> {
  up: UpResult;
  volumes: V[];
  duplicates: string[];
  orphans: V[];
}

/**
 * Runs `pulumi up` of a program that exports its volumes' ids as `volumeIds`, then counts what
 * `ours` lists at the platform against them.
 */
export async function upAndTally<V extends { id: string; name: string }>(
  stack: Stack,
  ours: () => Promise<V[]>,
): Promise<Tally<V>> {
  const up = await stack.up();
  const volumes = await ours();
  const names = volumes.map((v) => v.name);
  const duplicates = names.filter((n, i) => names.indexOf(n) !== i);
  const recorded = new Set(up.outputs.volumeIds?.value as string[]);
  const orphans = volumes.filter((v) => !recorded.has(v.id));
  return { up, volumes, duplicates, orphans };
}
