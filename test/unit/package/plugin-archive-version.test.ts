import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLUGIN_DOWNLOAD_URL, packageSchema } from "../../../provider/plugin/schema";

const root = path.resolve(__dirname, "../../..");
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), "utf8"));
// scripts/plugin-archive.js is plain CommonJS.
const { archiveName } = require(path.join(root, "scripts", "plugin-archive.js")) as {
  archiveName(version: string, os: string, arch: string): string;
};

// The CLI finds the installed archive by the name and version the SDK's pulumi-plugin.json names,
// and downloads from its server what the archive's name says: all of them must agree.
describe("the plugin archive, the schema and the SDKs name one plugin and one version", () => {
  const { version } = read("package.json");

  it("the schema serves package.json's version and the release download URL", () => {
    const schema = packageSchema();
    expect(schema.name).toBe("platform");
    expect(schema.version).toBe(version);
    expect(schema.pluginDownloadURL).toBe(PLUGIN_DOWNLOAD_URL);
  });

  it.each(["sdk-gen/python/pulumi_platform/pulumi-plugin.json", "sdk-gen/go/platform/pulumi-plugin.json"])(
    "%s names the plugin, its version and where to download it",
    (file) => {
      expect(read(file)).toEqual({ resource: true, name: "platform", version, server: PLUGIN_DOWNLOAD_URL });
    },
  );

  it("the archive is named as the CLI looks for the release asset", () => {
    expect(archiveName(version, "linux", "amd64")).toBe(
      `pulumi-resource-platform-v${version}-linux-amd64.tar.gz`,
    );
  });
});
