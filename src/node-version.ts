// Which Node runs the server: uWebSockets.js 20.30 ships its native addon for Node 16, 18 and 20
// only, so `npm start` on any other Node stops here, before anything loads uWS, and names the
// single binary (which carries its own Node 20) as the way to run.

export const SUPPORTED_NODE_MAJOR = 20;

/** The refusal for `version` (process.versions.node), or undefined when it can run the server. */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(version.split(".")[0]);
  if (major === SUPPORTED_NODE_MAJOR) return undefined;
  return `npm start needs Node ${SUPPORTED_NODE_MAJOR} (this is Node ${version}; the uWebSockets.js build it uses has no native addon for Node 22 or later). `
    + `Run the single binary instead, which carries its own Node ${SUPPORTED_NODE_MAJOR}: ./dist/bin/courtside serve (built by npm run build:binary on a machine with Node ${SUPPORTED_NODE_MAJOR})`;
}
