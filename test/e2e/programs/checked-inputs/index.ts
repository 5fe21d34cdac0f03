import * as pulumi from "@pulumi/pulumi";
import {
  AcmeCertificate,
  type AcmeCertificateArgs,
  CustomCertificate,
  type CustomCertificateArgs,
  PostgresPasswordRotation,
  type PostgresPasswordRotationArgs,
  Volume,
  type VolumeArgs,
} from "pulumi-platform";

// Each config value holds one resource's inputs as JSON, passed on as they are: a JavaScript
// program can misspell a name (`sizeGB`) or pass a wrong type, and `check` must catch it.
const config = new pulumi.Config();
const inputs = (key: string): Record<string, unknown> | undefined => {
  const text = config.get(key);
  return text === undefined ? undefined : JSON.parse(text);
};

const volume = inputs("volume");
if (volume) new Volume("vol", volume as unknown as VolumeArgs);

const acme = inputs("acme");
if (acme) new AcmeCertificate("acme", acme as unknown as AcmeCertificateArgs);

const rotation = inputs("rotation");
if (rotation) new PostgresPasswordRotation("rotation", rotation as unknown as PostgresPasswordRotationArgs);

// The chain and key come from secret config, so no PEM text is in any output but what the
// provider puts there. `privateKeyAs` hands the key over as a number (wrong type) or under a
// misspelled name (`privatekey`), in plaintext as if read from a file: the class only wraps
// `privateKey` in a secret.
const custom = inputs("custom");
if (custom) {
  const key = config.requireSecret("privateKey");
  const as = config.get("privateKeyAs");
  const keyInputs =
    as === "number"
      ? { privateKey: key.apply(Number) }
      : as === "privatekey"
        ? { privatekey: pulumi.unsecret(key) }
        : { privateKey: key };
  const fullchain = config.requireSecret("fullchain");
  new CustomCertificate("custom", { ...custom, fullchain, ...keyInputs } as unknown as CustomCertificateArgs);
}
