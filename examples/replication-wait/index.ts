// Read-your-writes on a replica: write on the primary, learn the primary's replication position
// (txID + postApplyChecksum) from its event stream, then wait until the replica's event stream
// reports that position before reading from the replica.
//
// Here the write goes through the emulator's control API (POST /__emulator/db/tx); in your app
// it is an ordinary write through your database client on the primary.
import {
  compareTxId,
  isTx,
  type PlatformEvent,
  type ReplicationPosition,
  replicationPosition,
  subscribeEvents,
} from "pulumi-platform/sdk";

const apiUrl = required("PLATFORM_API_URL");
const token = required("PLATFORM_API_TOKEN");
const db = process.env.DB_NAME ?? "app.db";
const writes = Number(process.env.WRITES ?? "3");
const timeoutMs = Number(process.env.WAIT_TIMEOUT_MS ?? "10000");

interface DbNode {
  name: string;
  isPrimary: boolean;
  eventsUrl: string;
}

async function main(): Promise<void> {
  const nodes = (await control("GET", "/__emulator/db/nodes")) as DbNode[];
  const primary = nodes.find((n) => n.isPrimary);
  const replica = nodes.find((n) => !n.isPrimary);
  if (!primary || !replica) throw new Error("need a primary and a replica");
  console.log(
    `primary ${primary.name} (${primary.eventsUrl}), replica ${replica.name} (${replica.eventsUrl})`,
  );

  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(), timeoutMs);
  try {
    // Subscribe to both streams BEFORE writing: a stream only reports transactions written after
    // it connected, so a replica that catches up quickly must not be missed.
    const primaryEvents = subscribeEvents(primary.eventsUrl, { signal: abort.signal });
    const replicaEvents = subscribeEvents(replica.eventsUrl, { signal: abort.signal });
    await expectInit(primaryEvents, primary.name);
    await expectInit(replicaEvents, replica.name);

    await control("POST", "/__emulator/db/tx", { db, count: writes });
    console.log(`wrote ${writes} transaction(s) to ${db} on the primary`);

    let position: ReplicationPosition | undefined;
    for (let seen = 0; seen < writes; ) {
      const event = await next(primaryEvents, "the primary's write");
      if (isTx(event) && event.db === db) {
        position = replicationPosition(event);
        seen++;
      }
    }
    if (!position) throw new Error("the primary reported no transaction");
    console.log(`primary position: txID ${position.txID} checksum ${position.postApplyChecksum}`);

    for (;;) {
      const event = await next(replicaEvents, `txID ${position.txID} on the replica`);
      if (!isTx(event) || event.db !== db) continue;
      const order = compareTxId(event.data.txID, position.txID);
      if (order < 0) continue;
      if (order === 0 && event.data.postApplyChecksum !== position.postApplyChecksum) {
        throw new Error(
          `replica diverged at txID ${position.txID}: checksum ${event.data.postApplyChecksum}`,
        );
      }
      console.log(
        `replica reached txID ${event.data.txID} checksum ${event.data.postApplyChecksum}: safe to read`,
      );
      break;
    }
  } finally {
    clearTimeout(deadline);
    abort.abort(); // closes both streams
  }
}

async function expectInit(events: AsyncGenerator<PlatformEvent>, node: string): Promise<void> {
  const first = await next(events, `init from ${node}`);
  if (first.type !== "init") throw new Error(`expected init from ${node}, got ${first.type}`);
}

async function next(events: AsyncGenerator<PlatformEvent>, what: string): Promise<PlatformEvent> {
  const result = await events.next();
  if (result.done) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  return result.value;
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(new URL(path, apiUrl), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (the emulator's url and token)`);
  return value;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
