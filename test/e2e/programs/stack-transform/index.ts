// The program of ./program.ts as a `runtime: nodejs` project (an official CLI's nodejs language
// host runs stack transforms); test/e2e/stack-transform.test.ts runs the same function inline.
import { stackTransformProgram } from "./program";

const outputs = stackTransformProgram();

export const dynId = outputs.dynId;
export const dynRetention = outputs.dynRetention;
export const plugId = outputs.plugId;
export const plugRetention = outputs.plugRetention;
export const ownRetention = outputs.ownRetention;
