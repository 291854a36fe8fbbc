import { expect, it } from "vitest";
import { TEST_NODE_ARGS } from "../../scripts/lib/test-node-args.mjs";

// The suite's CPU depends on these options reaching its processes (scripts/lib/test-node-args.mjs):
// a refactor that dropped them would pass every test and cost the PGlite pass a fifth more time.
it("runs the vitest workers, and hands every test server, WebAssembly on V8's baseline compiler only", () => {
  expect(TEST_NODE_ARGS).toEqual(["--liftoff-only"]);
  expect(process.execArgv).toEqual(expect.arrayContaining(TEST_NODE_ARGS));
  expect(process.env.TASKBOARD_SERVER_NODE_ARGS?.split(" ")).toEqual(TEST_NODE_ARGS);
});
