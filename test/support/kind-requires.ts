import type { Plugin } from "vitest/config";

/**
 * A kind's definition (provider/kinds/<kind>/kind.ts) reaches its runtime and its mock through a
 * `require("./runtime")` made when called, so that a program, which loads the registry, never
 * loads them. Vitest runs the TypeScript sources through Vite, whose modules Node's `require`
 * cannot load: in tests those requires become imports of the same modules (loaded with the
 * definition; the compiled package keeps them lazy, which test/unit/provider/program-load.test.ts
 * checks on dist/).
 */
export function kindRequires(): Plugin {
  return {
    name: "kind-definition-requires",
    enforce: "pre",
    transform(code: string, id: string) {
      if (!/[\\/]provider[\\/]kinds[\\/][^\\/]+[\\/]kinds?\.ts$/.test(id)) return undefined;
      const modules = new Map<string, string>();
      const body = code.replace(/\brequire\("(\.{1,2}\/[^"]+)"\)/g, (_all, spec: string) => {
        let name = modules.get(spec);
        if (!name) {
          name = `__kindModule${modules.size}`;
          modules.set(spec, name);
        }
        return name;
      });
      if (modules.size === 0) return undefined;
      const imports = [...modules].map(
        ([spec, name]) => `import * as ${name} from ${JSON.stringify(spec)};\n`,
      );
      return { code: imports.join("") + body, map: null };
    },
  };
}
