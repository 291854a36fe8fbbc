import { runnersRequireSandbox } from "@/lib/sandbox/mode";
import { readEmbeddedRegistration } from "@/lib/platform/embedded-registration";

// RUNNERS_REQUIRE_SANDBOX (lib/config.ts, docs/configuration.md): a runner that reports
// `sandbox: none` gets no jobs. A job carries the workspace's repository credentials and agent
// keys, and its agent reads untrusted text: unconfined, one prompt injection reads whatever the
// runner's user can.

// The server's own embedded runner is spared: it applies the server's AGENT_SANDBOX itself, and
// reports no sandbox only under `auto` without bubblewrap, where it refuses every agent but the
// bundled demo (lib/sandbox/mode.ts). So a fresh install without bubblewrap still runs the demo.

/** Why a runner that reported this sandbox gets no jobs, in words; null when it gets them. */
export function jobsRefusedReason(sandbox: string | null, runnerId: string): string | null {
  if (sandbox !== "none" || !runnersRequireSandbox()) return null;
  if (runnerId === readEmbeddedRegistration()?.id) return null;
  return (
    "This runner gets no jobs: it reported no sandbox (AGENT_SANDBOX=off, or bubblewrap missing on its machine) and this server " +
    "requires one (RUNNERS_REQUIRE_SANDBOX). Install bubblewrap and socat where the runner runs, or set RUNNERS_REQUIRE_SANDBOX=false on the server."
  );
}
