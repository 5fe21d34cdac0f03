// The program of ./program.ts as a `runtime: nodejs` project.
import { policyGuardedProgram } from "./program";

policyGuardedProgram();
