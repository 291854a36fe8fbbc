import { checksChange, type ChecksChange } from "@/lib/github/client/check-event";
import { installationChange, type InstallationChange } from "@/lib/github/client/installation-event";
import { pullRequestChange, type PullRequestChange } from "@/lib/github/client/pull-request-event";
import { pushChange, type PushChange } from "@/lib/github/client/push-event";
import type { VerifiedDelivery } from "@/lib/github/client/verify-webhook";

// The one entry point after verification and the idempotence insert: what the delivery asks of the
// board. "ignored" deliveries are still answered 2xx (GitHub would otherwise show them as failures).

export type BoardChange =
  | { kind: "pull_request"; change: PullRequestChange }
  | { kind: "checks"; change: ChecksChange }
  | { kind: "installation"; change: InstallationChange }
  | { kind: "push"; change: PushChange }
  | { kind: "ignored"; reason: string };

export function interpretDelivery(delivery: Pick<VerifiedDelivery, "event" | "action" | "payload">): BoardChange {
  const { event, payload } = delivery;
  switch (event) {
    case "pull_request": {
      const change = pullRequestChange(payload);
      return change ? { kind: "pull_request", change } : ignored(delivery);
    }
    case "check_suite":
    case "check_run": {
      const change = checksChange(event, payload);
      return change ? { kind: "checks", change } : ignored(delivery);
    }
    case "installation":
    case "installation_repositories": {
      const change = installationChange(event, payload);
      return change ? { kind: "installation", change } : ignored(delivery);
    }
    case "push": {
      const change = pushChange(payload);
      return change ? { kind: "push", change } : ignored(delivery);
    }
    default:
      return ignored(delivery);
  }
}

function ignored(delivery: Pick<VerifiedDelivery, "event" | "action">): BoardChange {
  return { kind: "ignored", reason: `${delivery.event}${delivery.action ? `.${delivery.action}` : ""} changes nothing on the board` };
}
