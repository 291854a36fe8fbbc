import { describe, expect, it } from "vitest";
import { checksChange } from "@/lib/github/client/check-event";
import { aggregateChecks } from "@/lib/github/client/fetch-checks";
import { installationChange } from "@/lib/github/client/installation-event";
import { interpretDelivery } from "@/lib/github/client/interpret-delivery";
import { pickLinkedTask, pullRequestChange, type LinkableTask } from "@/lib/github/client/pull-request-event";
import { PR_BODY_MAX, pullRequestBody } from "@/lib/github/client/pull-request-body";
import { pushChange } from "@/lib/github/client/push-event";
import { examplePayload } from "@/tests/fixtures/fake-github/webhooks";

// Payloads are GitHub's examples (@octokit/webhooks-examples), adjusted per case.

const TASK_ID = "0195a1b2-c3d4-7e5f-8a6b-1c2d3e4f5a6b";

function pr(action: string, edit: (payload: Record<string, any>) => void = () => {}) {
  const payload = examplePayload("pull_request", action);
  payload.installation = { id: 5, node_id: "x" };
  edit(payload);
  return payload;
}

describe("pull_request", () => {
  it("opened: the state and the link candidates from the PR", () => {
    const change = pullRequestChange(
      pr("opened", (p) => {
        p.pull_request.head.ref = "tb/login-page";
        p.pull_request.title = "Login page (#tb-12)";
        p.pull_request.body = `Closes #TB-7 and ${TASK_ID.toUpperCase()}; not a#tb-99 nor #tb-abc. Again #tb-12.`;
      }),
    );
    expect(change).toEqual({
      action: "opened",
      installation_id: 5,
      repo: "Codertocat/Hello-World",
      base_ref: "master",
      own_head_branch: "tb/login-page",
      link: {
        pr_url: "https://github.com/Codertocat/Hello-World/pull/2",
        branch: "tb/login-page",
        task_numbers: [12, 7],
        task_ids: [TASK_ID],
      },
      state: {
        pr_number: 2,
        pr_state: "open",
        pr_head_sha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
        pr_head_branch: "tb/login-page",
        pr_url: "https://github.com/Codertocat/Hello-World/pull/2",
      },
      recheck_mergeability: true,
    });
  });

  it("a head branch in a fork, or in a deleted fork, is not a branch the board can push to", () => {
    const fork = pullRequestChange(
      pr("opened", (p) => (p.pull_request.head.repo = { ...p.pull_request.head.repo, full_name: "someone/Hello-World" })),
    );
    expect(fork).toMatchObject({ own_head_branch: null, link: { branch: fork?.link.branch }, state: { pr_head_branch: null } });
    const deleted = pullRequestChange(pr("opened", (p) => (p.pull_request.head.repo = null)));
    expect(deleted?.own_head_branch).toBeNull();
  });

  it("a PR with no body has no mentions", () => {
    const change = pullRequestChange(pr("opened", (p) => (p.pull_request.body = null)));
    expect(change?.link).toMatchObject({ task_numbers: [], task_ids: [] });
  });

  it.each([
    ["opened", (p: any): void => void (p.pull_request.draft = true), "draft", true],
    ["ready_for_review", () => {}, "open", true],
    ["converted_to_draft", () => {}, "draft", true],
    ["synchronize", () => {}, "open", true],
    ["reopened", () => {}, "open", true],
    ["edited", () => {}, "open", true],
    ["closed", (p: any): void => Object.assign(p.pull_request, { merged: true, state: "closed" }), "merged", false],
    ["closed", (p: any): void => Object.assign(p.pull_request, { merged: false, state: "closed" }), "closed", false],
  ] as const)("%s → pr_state %s", (action, edit, state, recheck) => {
    const payload = action === "edited" ? { ...pr("opened"), action: "edited", changes: { title: { from: "old" } } } : pr(action, edit);
    const change = pullRequestChange(payload);
    expect(change?.state.pr_state).toBe(state);
    expect(change?.recheck_mergeability).toBe(recheck);
  });

  it.each(["labeled", "assigned", "locked", "review_requested"])("%s changes nothing", (action) => {
    expect(pullRequestChange(pr(action))).toBeNull();
  });
});

describe("pickLinkedTask", () => {
  const link = { pr_url: "https://github.com/o/r/pull/9", branch: "tb/x", task_numbers: [4, 3], task_ids: [TASK_ID] };
  const task = (id: string, over: Partial<LinkableTask> = {}): LinkableTask => ({ id, number: null, branch: null, pr_url: null, ...over });

  it("by pr_url", () => {
    expect(pickLinkedTask(link, [task("b", { branch: "tb/x" }), task("a", { pr_url: link.pr_url })])?.id).toBe("a");
  });
  it("by the task's branch (the PR's head ref)", () => {
    expect(pickLinkedTask(link, [task("n", { number: 4 }), task("b", { branch: "tb/x" })])?.id).toBe("b");
  });
  it("by a #tb-<number> mention, the first one mentioned first", () => {
    expect(pickLinkedTask(link, [task("three", { number: 3 }), task("four", { number: 4 })])?.id).toBe("four");
  });
  it("by the full task id", () => {
    expect(pickLinkedTask(link, [task(TASK_ID)])?.id).toBe(TASK_ID);
  });
  it("none matches", () => {
    expect(pickLinkedTask(link, [task("z", { number: 5, branch: "other" })])).toBeNull();
  });
});

describe("check_suite and check_run", () => {
  it("a completed successful suite, with its PR", () => {
    const payload = examplePayload("check_suite", "completed");
    payload.installation = { id: 5 };
    expect(checksChange("check_suite", payload)).toEqual({
      installation_id: 5,
      repo: "Codertocat/Hello-World",
      head_sha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821",
      pr_numbers: [2],
      event_checks: "success",
    });
  });

  it("a created run is pending; a completed failed one is failure", () => {
    const created = examplePayload("check_run", "created");
    expect(checksChange("check_run", created)?.event_checks).toBe("pending");
    const failed = examplePayload("check_run", "completed");
    failed.check_run.conclusion = "failure";
    expect(checksChange("check_run", failed)).toMatchObject({ event_checks: "failure", head_sha: failed.check_run.head_sha });
  });

  const run = (status: string, conclusion: string | null, name = "ci") => ({ name, status, conclusion });
  it.each([
    [[], null],
    [[run("completed", "success"), run("completed", "neutral"), run("completed", "skipped")], "success"],
    [[run("completed", "success"), run("in_progress", null)], "pending"],
    [[run("queued", null), run("completed", "timed_out")], "failure"],
    [[run("completed", "cancelled")], "failure"],
    [[run("completed", "action_required")], "failure"],
  ] as const)("aggregate %j → %s", (runs, verdict) => {
    expect(aggregateChecks([...runs]).checks).toBe(verdict);
  });

  it("names the failing checks with their summaries", () => {
    const failing = aggregateChecks([
      { name: "lint", status: "completed", conclusion: "success" },
      { name: "test", status: "completed", conclusion: "failure", output: { title: "2 failed", summary: "login.test.ts: expected 200" } },
    ]).failing;
    expect(failing).toEqual([{ name: "test", conclusion: "failure", title: "2 failed", summary: "login.test.ts: expected 200" }]);
  });
});

describe("installation events", () => {
  it("deleted: disconnect, with who did it", () => {
    expect(installationChange("installation", examplePayload("installation", "deleted"))).toEqual({
      installation_id: 2,
      disconnect_installation: true,
      repositories_removed: [],
      repositories_added: [],
      reason: "The GitHub App was uninstalled by octocat",
    });
  });

  it("suspend disconnects; unsuspend and created do not", () => {
    expect(installationChange("installation", examplePayload("installation", "suspend"))).toMatchObject({
      disconnect_installation: true,
      reason: expect.stringMatching(/^The GitHub App was suspended by \S+$/),
    });
    expect(installationChange("installation", examplePayload("installation", "unsuspend"))).toMatchObject({
      disconnect_installation: false,
      reason: null,
    });
    expect(installationChange("installation", examplePayload("installation", "created"))?.disconnect_installation).toBe(false);
  });

  it("repositories removed name the repositories", () => {
    const payload = examplePayload("installation_repositories", "removed");
    payload.repositories_removed = [{ id: 1, node_id: "x", name: "widgets", full_name: "acme/widgets", private: true }];
    expect(installationChange("installation_repositories", payload)).toMatchObject({
      disconnect_installation: false,
      repositories_removed: ["acme/widgets"],
      reason: `acme/widgets was removed from the GitHub App by ${payload.sender.login}`,
    });
    expect(installationChange("installation_repositories", examplePayload("installation_repositories", "added"))).toMatchObject({
      repositories_added: ["Codertocat/Space"],
      reason: null,
    });
  });
});

describe("push", () => {
  it("to the default branch: re-check PRs into it", () => {
    const payload = examplePayload("push");
    payload.ref = "refs/heads/master";
    payload.installation = { id: 5 };
    expect(pushChange(payload)).toEqual({
      installation_id: 5,
      repo: "Codertocat/Hello-World",
      base_branch: "master",
      head_sha: payload.after,
    });
  });

  it("to a tag, another branch, or deleting the branch: nothing", () => {
    const tag = examplePayload("push");
    expect(tag.ref).toBe("refs/tags/simple-tag");
    expect(pushChange(tag)).toBeNull();
    expect(pushChange({ ...tag, ref: "refs/heads/feature" })).toBeNull();
    expect(pushChange({ ...tag, ref: "refs/heads/master", deleted: true })).toBeNull();
  });
});

describe("interpretDelivery", () => {
  it("dispatches by event name and ignores the rest in words", () => {
    expect(interpretDelivery({ event: "pull_request", action: "opened", payload: pr("opened") }).kind).toBe("pull_request");
    expect(interpretDelivery({ event: "check_run", action: "created", payload: examplePayload("check_run", "created") }).kind).toBe(
      "checks",
    );
    expect(interpretDelivery({ event: "installation", action: "deleted", payload: examplePayload("installation", "deleted") }).kind).toBe(
      "installation",
    );
    expect(interpretDelivery({ event: "pull_request", action: "labeled", payload: pr("labeled") })).toEqual({
      kind: "ignored",
      reason: "pull_request.labeled changes nothing on the board",
    });
    expect(interpretDelivery({ event: "star", action: "created", payload: examplePayload("star") })).toEqual({
      kind: "ignored",
      reason: "star.created changes nothing on the board",
    });
    // A payload that does not have the shape of its event is ignored, not thrown.
    expect(interpretDelivery({ event: "pull_request", action: "opened", payload: { action: "opened" } }).kind).toBe("ignored");
  });
});

describe("pullRequestBody", () => {
  const task = { taskUrl: `https://board.example.com/w/1/tasks/${TASK_ID}`, taskId: TASK_ID };

  it("holds the report and a task reference that links the PR back", () => {
    const body = pullRequestBody({ ...task, report: "Added the login page.\n", taskNumber: 12 });
    expect(body).toBe(`Added the login page.\n\n---\nTask #tb-12: ${task.taskUrl}\n`);
    const opened = pr("opened", (p) => (p.pull_request.body = body));
    expect(pullRequestChange(opened)?.link).toMatchObject({ task_numbers: [12], task_ids: [TASK_ID] });
  });

  it("uses the task id without a number, and says when there is no report", () => {
    expect(pullRequestBody({ ...task, report: "  ", taskNumber: null })).toBe(
      `The agent's run left no report.\n\n---\nTask ${TASK_ID}: ${task.taskUrl}\n`,
    );
  });

  it("shortens a long report to GitHub's limit and keeps the task reference", () => {
    const body = pullRequestBody({ ...task, report: "x".repeat(PR_BODY_MAX * 2), taskNumber: 3 });
    expect(body.length).toBe(PR_BODY_MAX);
    expect(body).toContain("… (report shortened)");
    expect(body.endsWith(`Task #tb-3: ${task.taskUrl}\n`)).toBe(true);
  });
});
