// The ready pack as a team would start it; the test adds PulumiPolicy.yaml (its runtime depends on
// the CLI, see test/e2e/policy-pack.test.ts).
import { platformPolicyPack } from "pulumi-platform/policy";

platformPolicyPack("platform-guardrails");
