import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { rename, unlink, writeFile } from "node:fs/promises";
import type { PersistedState } from "./index";

/**
 * The `--state FILE`: read once at start, written debounced after changes and on close.
 * Writes go to a temp file in the same directory and are renamed over the target, so a crash
 * leaves either the old or the new file, never a torn one.
 */
export class StateFile {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    readonly path: string,
    private readonly snapshot: () => PersistedState,
    private readonly debounceMs: number,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  /** The saved state, or undefined when the file does not exist yet. */
  read(): PersistedState | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
    const parsed = JSON.parse(text) as PersistedState;
    if (parsed.version !== 1)
      throw new Error(`state file ${this.path} has unknown version ${parsed.version}`);
    return parsed;
  }

  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.write().catch(this.onError);
    }, this.debounceMs);
    this.timer.unref();
  }

  /** Writes now, even without changes: the saved virtual time must be the latest. */
  async flush(): Promise<void> {
    this.dirty = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.write();
  }

  private write(): Promise<void> {
    // Chained so two writes never interleave; each takes the state as it is when it starts.
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        if (!this.dirty) return;
        this.dirty = false;
        const temp = `${this.path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
        try {
          await writeFile(temp, `${JSON.stringify(this.snapshot())}\n`, { mode: 0o600 });
          await rename(temp, this.path);
        } catch (err) {
          this.dirty = true;
          await unlink(temp).catch(() => {});
          throw err;
        }
      });
    return this.writing;
  }
}
