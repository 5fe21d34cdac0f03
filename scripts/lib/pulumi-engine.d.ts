export declare const repoRoot: string;
export declare function ensurePulumiCli(): string;
export interface OfflineBackend {
  dir: string;
  backendUrl: string;
  pulumiHome: string;
  remove(): void;
}
export declare function createOfflineBackend(label?: string): OfflineBackend;
export declare function offlineEngineEnv(backend: OfflineBackend, cliDir: string): Record<string, string>;
