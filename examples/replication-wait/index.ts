// Read-your-writes on a replica: write on the primary, learn the primary's replication position
// (txID + postApplyChecksum) from its event stream, then wait until the replica's event stream
// reports that position before reading from the replica.
//
// Here the write goes through the emulator's control API (`control.db.tx`); in your app
// it is an ordinary write through your database client on the primary.
import { createControlClient } from "pulumi-platform/emulator";
import { ReplicationTracker } from "pulumi-platform/sdk";

const apiUrl = required("PLATFORM_API_URL");
const token = required("PLATFORM_API_TOKEN");
const db = process.env.DB_NAME ?? "app.db";
const writes = Number(process.env.WRITES ?? "3");
const timeoutMs = Number(process.env.WAIT_TIMEOUT_MS ?? "10000");
const control = createControlClient(apiUrl, token);

async function main(): Promise<void> {
  const nodes = await control.db.nodes();
  const primaryNode = nodes.find((n) => n.isPrimary);
  const replicaNode = nodes.find((n) => !n.isPrimary);
  if (!primaryNode || !replicaNode) throw new Error("need a primary and a replica");
  console.log(
    `primary ${primaryNode.name} (${primaryNode.eventsUrl}), replica ${replicaNode.name} (${replicaNode.eventsUrl})`,
  );

  // Follow both streams BEFORE writing: a stream only reports transactions written after it
  // connected. A tracker remembers the latest position per database, so a replica that catches
  // up before we ask is answered at once instead of waiting for a transaction that never comes.
  const primary = new ReplicationTracker(primaryNode.eventsUrl);
  const replica = new ReplicationTracker(replicaNode.eventsUrl);
  try {
    await Promise.all([primary.ready({ timeoutMs }), replica.ready({ timeoutMs })]);

    // The control API answers with the primary's new position ({ txID, postApplyChecksum, ... }).
    // In an app, take the txID from your database after the commit, or call
    // `primary.nextTx(db)` before a single write and await it afterwards.
    const written = await control.db.tx({ db, count: writes });
    console.log(`wrote ${writes} transaction(s) to ${db} on the primary`);

    // The primary's own stream confirms the txID and gives the checksum that goes with it.
    const pos = await primary.waitFor(db, written.txID, { timeoutMs });
    console.log(`primary position: txID ${pos.txID} checksum ${pos.postApplyChecksum}`);

    // Resolves at once if the replica is already there; rejects with a TimeoutError after
    // `timeoutMs`, or with a ReplicationDivergedError if the replica has this txID with another
    // checksum.
    const reached = await replica.waitFor(db, pos, { timeoutMs });
    console.log(`replica reached txID ${reached.txID} checksum ${reached.postApplyChecksum}: safe to read`);
  } finally {
    primary.close();
    replica.close();
  }
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
