import { execFileSync } from "node:child_process";

/** Whether `name` is a program on the PATH. */
export function hasCommand(name) {
  try {
    execFileSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
