/** The lowest version the peer range of `@pulumi/pulumi` (package.json, `^X.Y.Z`) names. */
export function lowestPeerVersion(): string;
/** `@pulumi/pulumi@<version>` installed once into the cache: its `node_modules`. */
export function ensurePeerSdk(version: string): {
  nodeModules: string;
  version: string;
  created: boolean;
  seconds: number;
};
