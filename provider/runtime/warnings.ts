/**
 * Where the runtime's warnings go. In the dynamic host each warning takes that host's way (its
 * stderr, which the engine prints as a message of the stack). A provider plugin's stderr is shown
 * only at debug level, so the plugin sends them to the engine's `Log` instead
 * (../plugin/engine-log), which prints them as warnings of the resource. The texts hold no secret.
 * @module
 */

/** Sends one warning to the engine; resolves once it is delivered (or could not be). */
export type WarningSink = (message: string) => Promise<void>;

let engineSink: WarningSink | undefined;

/** Sends the runtime's warnings to `sink` from now on (the provider plugin, at its start). */
export function sendWarningsTo(sink: WarningSink): void {
  engineSink = sink;
}

/** Warns through the plugin's sink when one is set, else as the dynamic host does (`inHost`). */
export async function warn(message: string, inHost: (message: string) => unknown): Promise<void> {
  if (engineSink) await engineSink(message);
  else await inHost(message);
}
