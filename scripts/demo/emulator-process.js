// @ts-check
// Runs `platform-emulator` as a child process: reads its one-line JSON start message from stdout,
// sends its stderr log to a file, and stops it with SIGTERM (SIGKILL after a grace period).

const { spawn } = require("node:child_process");
const fs = require("node:fs");

/**
 * @typedef {{ url: string, token: string, taskSocket: string, eventsUrl: string }} EmulatorInfo
 * @typedef {{ info: EmulatorInfo, pid: number | undefined, logFile: string, stop: () => Promise<void> }} RunningEmulator
 */

/**
 * Starts the emulator CLI (`cliPath`, e.g. dist/emulator/cli.js) with `args`.
 * @param {string} cliPath
 * @param {string[]} args
 * @param {{ logFile: string, startTimeoutMs?: number }} options
 * @returns {Promise<RunningEmulator>}
 */
function startEmulatorProcess(cliPath, args, options) {
  const log = fs.openSync(options.logFile, "a");
  const child = spawn(process.execPath, [cliPath, ...args], { stdio: ["ignore", "pipe", log] });
  fs.closeSync(log);
  const stdout = /** @type {import("node:stream").Readable} */ (child.stdout);
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };

  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`the emulator printed no start line within ${options.startTimeoutMs ?? 20_000} ms`));
    }, options.startTimeoutMs ?? 20_000);
    const onData = (/** @type {Buffer} */ chunk) => {
      buffered += chunk.toString("utf8");
      const newline = buffered.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      stdout.off("data", onData);
      stdout.resume(); // nothing else is printed on stdout; keep the pipe drained anyway
      try {
        const info = /** @type {EmulatorInfo} */ (JSON.parse(buffered.slice(0, newline)));
        resolve({ info, pid: child.pid, logFile: options.logFile, stop });
      } catch {
        void stop();
        reject(new Error(`the emulator's start line is not JSON: ${buffered.slice(0, newline)}`));
      }
    };
    stdout.on("data", onData);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    void exited.then((/** @type {any} */ how) => {
      clearTimeout(timer);
      reject(
        new Error(
          `the emulator exited before it started (code ${how.code}, signal ${how.signal}); log: ${options.logFile}`,
        ),
      );
    });
  });
}

module.exports = { startEmulatorProcess };
