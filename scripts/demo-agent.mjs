#!/usr/bin/env node
// The DEMO agent: runs when AGENT_COMMAND is not set and no profile is chosen, so runs and schedules
// can be tried out of the box. It changes nothing: it prints some progress, then writes a report.
// Work it cannot pretend to do it refuses in words: asked to fix merge conflicts it fails, so the
// conflict stays on the task instead of being cleared by a run that fixed nothing. Plug in a real
// agent with a profile or AGENT_COMMAND (see docs/agents.md).
import fs from "node:fs";

const env = process.env;
const steps = ["Reading the task", "Looking around the working directory", "Planning", "Pretending to work", "Wrapping up"];
const delayMs = Number(env.DEMO_AGENT_STEP_MS ?? 400);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

console.log(`[demo agent] This is the bundled demo agent; it does not change anything.`);
console.log(`[demo agent] task ${env.TASKBOARD_TASK_ID}: ${env.TASKBOARD_TASK_TITLE} (trigger: ${env.TASKBOARD_TRIGGER})`);
if (env.TASKBOARD_PR_URL) console.log(`[demo agent] pull request: ${env.TASKBOARD_PR_URL}`);
if (env.TASKBOARD_TRIGGER === "fix_conflicts") {
  console.error(
    "The demo agent cannot fix merge conflicts: it changes nothing. Add a real agent (Settings → Agents) and run Fix conflicts with it.",
  );
  process.exit(3);
}
const instructions = (env.TASKBOARD_INSTRUCTIONS ?? "").trim();
console.log(`[demo agent] instructions: ${instructions.split("\n")[0].slice(0, 200) || "(none)"}`);
for (const [index, step] of steps.entries()) {
  await sleep(delayMs);
  console.log(`[demo agent] step ${index + 1}/${steps.length}: ${step}…`);
}
if (env.TASKBOARD_REPORT_FILE) {
  fs.writeFileSync(
    env.TASKBOARD_REPORT_FILE,
    [
      "# Demo agent report",
      "",
      `Task: ${env.TASKBOARD_TASK_TITLE}`,
      `Trigger: ${env.TASKBOARD_TRIGGER}`,
      "",
      "This run used the bundled demo agent, which only prints progress and writes this report.",
      "Set AGENT_COMMAND to run a real coding agent (see docs/agents.md).",
      "",
    ].join("\n"),
  );
}
console.log("[demo agent] done");
