export interface PythonEnv {
  /** `<venv>/bin/python`: run tools as `python -m pip`, `python -m mypy`. */
  python: string;
  venv: string;
  /** Whether this call made the venv (a cold run), and how long it took (seconds). */
  created: boolean;
  seconds: number;
  /** The `name==version` pins installed beside the SDK's wheel. */
  pins: string[];
}
export declare const REQUIREMENTS: string;
export declare function ensurePythonEnv(): PythonEnv;
