import path from "node:path";

/** The built `pulumi-platform` command (`recover`, `adopt`), as the package's bin runs it. */
export const OPS_CLI = path.resolve(__dirname, "..", "..", "dist", "ops", "main.js");
