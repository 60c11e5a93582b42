// Which Node runs the server. uWebSockets.js has native addons for Node 20, 22, 24 and 25 (20.57,
// glibc ≥ 2.38) and Node 20 (20.30, older glibc too): `npm start` on any other Node stops here,
// before anything loads uWS, saying which Node to install and how to look for a newer addon.
// Whether this machine's glibc suits the addon is uws.ts's to say, when it loads.

/** The Node majors some installed uWS build has an addon for. */
export const SUPPORTED_NODE_MAJORS = [20, 22, 24, 25] as const;
/** The Node the single binary embeds (build-binary.ts refuses another). */
export const BINARY_NODE_MAJOR = 24;

/** The refusal for `version` (process.versions.node), or undefined when it can run the server. */
export function nodeVersionProblem(version: string, abi: string = process.versions.modules): string | undefined {
  const major = Number(version.split(".")[0]);
  if ((SUPPORTED_NODE_MAJORS as readonly number[]).includes(major)) return undefined;
  const why = major < 20
    ? `Node ${major} is too old for the uWebSockets.js builds this uses`
    : `no uWebSockets.js build has a native addon for Node ${major} (ABI ${abi}) yet; \`npm view @btc-vision/uwebsockets.js versions\` lists the builds, and one for Node ${major} ships uws_linux_x64_${abi}.node`;
  return `npm start needs Node 24 or 22 LTS (this is Node ${version}): ${why}. Install Node 24 (or 22) and run npm ci again; `
    + "on a Linux whose glibc is older than 2.38 (Debian 12, Ubuntu 22.04) run Node 20, which is past end of life. "
    + `On Linux x64 with glibc 2.38 or later the single binary carries its own Node ${BINARY_NODE_MAJOR}: ./dist/bin/courtside serve`;
}
