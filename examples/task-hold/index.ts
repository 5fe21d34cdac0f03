// Keeps the instance awake while a long job runs: a task on the local task API is a hold on the
// current run of the instance, and `TaskClient.hold` keeps one alive with a heartbeat (a short
// expiry refreshed well before it passes), then deletes it when the job ends, on Ctrl-C, on
// SIGTERM and on normal exit. If the process crashes, the task simply expires and the instance
// may pause again.
import { TaskClient } from "pulumi-platform/sdk";

const socketPath = process.env.PLATFORM_TASK_SOCKET ?? "/.platform/api.sock";
const jobSeconds = Number(process.env.JOB_SECONDS ?? "10");
const ttlSeconds = Number(process.env.TASK_TTL_SECONDS ?? "30");
const refreshEveryMs = Number(process.env.TASK_REFRESH_MS ?? String((ttlSeconds * 1000) / 3));

async function main(): Promise<void> {
  const tasks = new TaskClient({ socketPath });
  const hold = await tasks.hold("nightly-export", { ttlSeconds, refreshEveryMs });
  console.log(`holding task ${hold.name} (expires ${hold.expiresAt}, refreshed every ${refreshEveryMs} ms)`);
  try {
    for (let second = 1; second <= jobSeconds; second++) {
      await exportOneBatch();
      const live = await tasks.list();
      console.log(`job: ${second}/${jobSeconds} s done; live tasks: ${live.map((t) => t.name).join(", ")}`);
    }
  } finally {
    await hold.release();
    await tasks.close();
  }
  console.log("job finished; task released, the instance may pause when idle");
}

// Stands in for real work.
function exportOneBatch(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1000));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
