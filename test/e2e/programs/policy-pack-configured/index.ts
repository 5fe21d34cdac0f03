// The ready pack with the config docs/policy.md shows: a rule's config without an enforcement
// level must keep the rule's own level (test/e2e/policy-pack.test.ts).
import { platformPolicyPack } from "pulumi-platform/policy";

platformPolicyPack("platform-guardrails", {
  "platform-volume-snapshot-retention": { minimumDays: 14 },
  "platform-rotation-alternate-user": "mandatory",
});
