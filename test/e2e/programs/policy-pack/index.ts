// The ready pack as a team would start it (PulumiPolicy.yaml `runtime: nodejs`; how the test runs it
// without a current nodejs language host: test/e2e/policy-pack.test.ts).
import { platformPolicyPack } from "pulumi-platform/policy";

platformPolicyPack("platform-guardrails");
