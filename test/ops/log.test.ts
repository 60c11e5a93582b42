import t from "tap";
import { spawn } from "node:child_process";

// The built logger in a process of its own: its destination is that process's stdout.
const script = `
  import { createLogger } from ${JSON.stringify(new URL("../../dist/src/ops/log.js", import.meta.url).href)};
  const logger = createLogger("info");
  logger.info({ route: "/api/teams" }, "request");
  logger.error({ requestId: "abc" }, "unexpected error");
  setTimeout(() => undefined, 10_000);
`;

t.test("an error line is written at once, not when 4 KiB of access lines have piled up or at shutdown", async (t) => {
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  t.teardown(() => child.kill());
  let output = "";
  child.stdout.setEncoding("utf8");
  const seen = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 3000);
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (output.includes("unexpected error")) {
        clearTimeout(timer);
        resolve(true);
      }
    });
  });
  t.ok(seen, "the error reached stdout while the process was still running");
  t.match(output, /"msg":"request"/, "with the access line buffered before it");
});
