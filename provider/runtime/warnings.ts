/**
 * Where the runtime's warnings go. In the dynamic host each warning takes that host's way (its
 * stderr, which the engine prints as a message of the stack). A provider plugin's stderr is shown
 * only at debug level, so the plugin sends them to the engine's `Log` instead
 * (../plugin/engine-log), which prints them as warnings of the resource.
 *
 * The resource is named by the sink the plugin passes with each call (`about`), not looked up from
 * an async context: an `AsyncLocalStorage` turns on Node's promise hooks for the whole process,
 * which cost the plugin a third of its CPU in a 100-volume `up`. The texts hold no secret.
 * @module
 */

/** Sends one warning to the engine; resolves once it is delivered (or could not be). */
export type WarningSink = (message: string) => Promise<void>;

let processSink: WarningSink | undefined;
const duringCall: string[] = [];

/**
 * Sends the runtime's warnings to `sink` from now on when no call names its resource (the provider
 * plugin, at its start): a warning of the process, such as one raised as it stops.
 */
export function sendWarningsTo(sink: WarningSink): void {
  processSink = sink;
}

/**
 * Warns through the call's sink (`about`, the plugin: the engine's Log about the call's resource),
 * else the plugin's sink of the process, else as the dynamic host does (`inHost`).
 */
export async function warn(
  message: string,
  inHost: (message: string) => unknown,
  about?: WarningSink,
): Promise<void> {
  const sink = about ?? processSink;
  if (sink) await sink(message);
  else await inHost(message);
}

/**
 * A warning raised deep in a call that has no way to name the call (the sdk's token source): in
 * the dynamic host it goes out at once (`inHost`, synchronous); in the plugin it waits for the end
 * of the call, whose sink {@link sendCallWarnings} then names. Calls running side by side share the
 * process's token, so the one that ends first carries it.
 */
export function warnDuringCall(message: string, inHost: (message: string) => void): void {
  if (processSink) duringCall.push(message);
  else inHost(message);
}

/** Sends what {@link warnDuringCall} kept, as warnings of the call that ends (`about`). */
export async function sendCallWarnings(about?: WarningSink): Promise<void> {
  for (const message of duringCall.splice(0)) await warn(message, () => undefined, about);
}

/**
 * A warning of the call that runs, from code that does not hold the call's sink (a kind's look
 * that took something over after a lost answer): the plugin sends it at the end of the call,
 * about the call's resource; the dynamic host writes it to stderr at once, which the engine
 * prints as a message of the stack.
 */
export function warnOfCall(message: string): void {
  warnDuringCall(message, (text) => console.warn(`warning: ${text}`));
}
