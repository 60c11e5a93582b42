// Registers test/typescript-hooks.mjs: tap runs every test file with `--import` of this file
// (.taprc), and a test that starts Node with its own arguments passes it on.
import module from "node:module";
import * as hooks from "./typescript-hooks.mjs";

if (typeof module.registerHooks === "function") module.registerHooks(hooks);
else module.register(new URL("./typescript-hooks.mjs", import.meta.url));
