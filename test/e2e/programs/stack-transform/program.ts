import * as pulumi from "@pulumi/pulumi";
import * as dynamicDoor from "pulumi-platform";
import * as pluginDoor from "pulumi-platform/plugin";

/**
 * A team's default in one place: a stack transform (the engine calls it back for every resource
 * the program registers) sets the snapshot retention of every Volume that leaves it out, on both
 * doors (`pulumi-nodejs:dynamic/platform:Volume` and the plugin's `platform:index:Volume`).
 *
 * The one source of the program: `index.ts` runs it as an ordinary `runtime: nodejs` project
 * (`pulumi up` with an official CLI), test/e2e/stack-transform.test.ts as an Automation API inline
 * program (the CLI built here has a nodejs language host too old for stack transforms). Returns the
 * stack's outputs.
 */
export function stackTransformProgram() {
  const config = new pulumi.Config();
  const retention = config.requireNumber("defaultRetention");
  pulumi.runtime.registerResourceTransform((args) => {
    if (!args.type.endsWith("platform:Volume") && args.type !== "platform:index:Volume") return undefined;
    if (args.props.snapshotRetention !== undefined) return undefined;
    return { props: { ...args.props, snapshotRetention: retention }, opts: args.opts };
  });

  const app = "demo-app";
  const viaDynamic = new dynamicDoor.Volume("dyn", { app, name: "dyn", region: "ord" });
  const viaPlugin = new pluginDoor.Volume("plug", { app, name: "plug", region: "ord" });
  // A volume that sets its own retention keeps it.
  const own = new dynamicDoor.Volume("own", { app, name: "own", region: "ord", snapshotRetention: 3 });

  return {
    dynId: viaDynamic.volumeId,
    dynRetention: viaDynamic.snapshotRetention,
    plugId: viaPlugin.volumeId,
    plugRetention: viaPlugin.snapshotRetention,
    ownRetention: own.snapshotRetention,
  };
}
