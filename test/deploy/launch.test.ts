// deploy/launch.mjs, what every npm script runs first, on this checkout: what it refuses before it
// installs or builds anything. (On a fresh clone, what it installs and builds and when it builds
// nothing: test/ops/fresh-clone.test.ts.)

import t from "tap";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BINARY_NODE_MAJOR } from "../../src/node-version.js";

const LAUNCH = fileURLToPath(new URL("../../deploy/launch.mjs", import.meta.url));
const isBinaryNode = process.versions.node.startsWith(`${BINARY_NODE_MAJOR}.`) && process.platform === "linux" && process.arch === "x64";

t.test(`npm run build:binary on a Node other than ${BINARY_NODE_MAJOR} is refused at once, before npm ci or a build`, { skip: isBinaryNode ? `this is Node ${BINARY_NODE_MAJOR} on Linux x64: nothing to refuse` : false }, async (t) => {
  const result = spawnSync(process.execPath, [LAUNCH, "--binary"], { encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
  t.equal(result.status, 1);
  t.equal(result.stdout, "");
  t.equal(result.stderr, `build:binary: needs Node ${BINARY_NODE_MAJOR} LTS on Linux x64 (the binary embeds the Node running this); this is Node ${process.version} on ${process.platform}-${process.arch}. `
    + `Run it with Node ${BINARY_NODE_MAJOR}: PATH=<node ${BINARY_NODE_MAJOR} bin directory>:$PATH npm run build:binary (.ci/node24 sets one up)\n`);
});
