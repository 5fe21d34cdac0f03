import { describe, expect, it } from "vitest";
import { mockAnswer } from "../../../provider/testing/answer";
import { makeCert, otherKey } from "../../support/certs";

// The plugin's answer to the Python and Go mocks (provider function platform:testing:mock): the
// TypeScript mocks' check and outputs on plain values, with what the language mocks keep secret.

const NOW = "2027-06-01T00:00:00.000Z";

describe("mockAnswer", () => {
  it("a check failure is the line preview prints, naming the resource and the property", () => {
    const answer = mockAnswer({
      type: "platform:index:Volume",
      name: "data",
      inputs: { app: "a", name: "data", sizeGb: -1 },
      secretInputs: new Set(),
    });
    expect(answer).toEqual({
      failures: [
        "platform:index:Volume resource 'data': property sizeGb value {-1} has a problem: sizeGb must be a whole number from 1 to 500000 GB (got -1)",
      ],
    });
  });

  it("a secret input's value is never in a failure", async () => {
    const cert = await makeCert("shop.example.com");
    const key = otherKey();
    const answer = mockAnswer({
      type: "platform:index:CustomCertificate",
      name: "shop",
      inputs: { app: "a", hostname: "shop.example.com", fullchain: cert.cert, privateKey: key },
      secretInputs: new Set(["privateKey"]),
    });
    expect(answer.failures.length).toBeGreaterThan(0);
    expect(answer.failures.join("\n")).not.toContain(key.split("\n")[1]);
  });

  it("outputs as a create gives them at the time asked, the password named secret", () => {
    const answer = mockAnswer({
      type: "platform:index:PostgresPasswordRotation",
      name: "db",
      inputs: { clusterId: "pg-main", username: "app_user" },
      secretInputs: new Set(["clusterId"]),
      now: NOW,
    });
    if (!("id" in answer)) throw new Error(answer.failures.join("\n"));
    expect(answer.state).toMatchObject({ username: "app_user", rotatedAt: NOW });
    expect(typeof answer.state.password).toBe("string");
    expect(answer.secrets.sort()).toEqual(["clusterId", "password"]);
  });

  it("refuses a type that is not the plugin's", () => {
    expect(() =>
      mockAnswer({ type: "aws:s3:Bucket", name: "b", inputs: {}, secretInputs: new Set() }),
    ).toThrow("the platform provider has no resource type aws:s3:Bucket");
  });
});
