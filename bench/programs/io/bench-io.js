// @ts-check
// The `io` control's provider code, installed by the bench as the package `bench-io` of the io
// program, with the emulator's address in target.json beside it. One request per operation
// (Node's fetch), answers mapped without validation.
const fs = require("node:fs");
const path = require("node:path");

/** @type {{ url: string, token: string }} */
const target = JSON.parse(fs.readFileSync(path.join(__dirname, "target.json"), "utf8"));
const headers = {
  authorization: `Bearer ${target.token}`,
  accept: "application/json",
  "content-type": "application/json",
};
/** @param {string} app @param {string} [id] */
const volumePath = (app, id) => `/v1/apps/${app}/volumes${id ? `/${id}` : ""}`;

/** @param {string} method @param {string} p @param {unknown} [body] */
async function call(method, p, body) {
  const res = await fetch(target.url + p, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok && res.status !== 404) throw new Error(`${method} ${p}: ${res.status} ${json.error}`);
  return { status: res.status, json };
}

/** @param {any} v the platform's volume @param {any} inputs */
const outputs = (v, inputs) => ({
  app: inputs.app,
  programInputs: ["name", "region", "sizeGb"],
  volumeId: v.id,
  name: v.name,
  state: v.state,
  sizeGb: v.size_gb,
  region: v.region,
  zone: v.zone,
  encrypted: v.encrypted,
  attachedMachineId: v.attached_machine_id ?? null,
  attachedAllocId: v.attached_alloc_id ?? null,
  createdAt: v.created_at,
  blocks: v.blocks ?? 0,
  blockSize: v.block_size ?? 0,
  blocksFree: v.blocks_free ?? 0,
  blocksAvail: v.blocks_avail ?? 0,
  fstype: v.fstype ?? "",
  snapshotRetention: v.snapshot_retention,
  autoBackupEnabled: v.auto_backup_enabled,
  hostDedicationKey: v.host_dedication_key ?? "",
  needsRestart: false,
});

/** @param {any} inputs */
exports.create = async (inputs) => {
  const body = { name: inputs.name, region: inputs.region, size_gb: inputs.sizeGb };
  const { json } = await call("POST", volumePath(inputs.app), body);
  return { id: json.id, outs: outputs(json, inputs) };
};
/** @param {string} id @param {any} props */
exports.read = async (id, props) => {
  const { status, json } = await call("GET", volumePath(props.app, id));
  return status === 404 || json.state === "destroyed"
    ? { id: "", props: {} }
    : { id, props: outputs(json, props) };
};
/** @param {string} id @param {any} props */
exports.remove = async (id, props) => {
  await call("DELETE", volumePath(props.app, id));
};
