// Which Node runs the server. Node 20 and later serve: through uWebSockets.js where one of its
// builds has an addon for this Node and machine (20.57: Node 20/22/24/25 on glibc ≥ 2.38; 20.30:
// Node 20, older glibc too), else through Node's own node:http (src/http/adapter.ts), which runs
// on any Node ≥ 20 (Node 26, Alpine's musl, older glibc). Older Node stops here, before anything loads.

/** The oldest Node major the server runs on (package.json `engines`). */
export const OLDEST_NODE_MAJOR = 20;
/** The Node majors some installed uWS build has an addon for (the others serve through node:http). */
export const SUPPORTED_NODE_MAJORS = [20, 22, 24, 25] as const;
/** The Node the single binary embeds (build-binary.ts refuses another). */
export const BINARY_NODE_MAJOR = 24;

/** The refusal for `version` (process.versions.node), or undefined when it can run the server. */
export function nodeVersionProblem(version: string): string | undefined {
  const major = Number(version.split(".")[0]);
  if (major >= OLDEST_NODE_MAJOR) return undefined;
  return `npm start needs Node ${OLDEST_NODE_MAJOR} or later, best Node 24 LTS (this is Node ${version}): Node ${major} is too old for the server's code. Install Node 24 and run npm ci again`;
}
