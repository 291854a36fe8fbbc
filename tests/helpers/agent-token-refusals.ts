import { expect } from "vitest";

// Every operation an agent token may not do (docs/agents.md lists them), for
// tests/api/agent-tokens.test.ts: each is sent with a body that would succeed for a person where that
// matters, and `unchanged` checks, as the admin, that it left nothing changed.

export type Refusal = { name: string; method: string; path: () => string; json?: () => unknown; unchanged?: () => Promise<void> };

/** What the refusals act on, made by the admin before the tests. */
export type RefusalFixtures = { keyId: string; userId: string; agentId: string; scheduleId: string; questionId: string; taskId: string };

const fakeId = "0190b8f0-0000-7000-8000-000000000001";

export function agentTokenRefusals(context: {
  wsId: () => string;
  fixtures: () => RefusalFixtures;
  /** GET as the admin; the body. */
  adminGet: (path: string) => Promise<any>;
}): Refusal[] {
  const { wsId, fixtures, adminGet } = context;
  const ws = (path: string) => () => `/api/workspaces/${wsId()}${path}`;
  const task = () => adminGet(`/api/workspaces/${wsId()}/tasks/${fixtures().taskId}`);
  const schedule = () => adminGet(`/api/workspaces/${wsId()}/schedules/${fixtures().scheduleId}`);

  return [
    { name: "list API keys", method: "GET", path: () => "/api/auth/api-keys" },
    {
      name: "create an API key",
      method: "POST",
      path: () => "/api/auth/api-keys",
      json: () => ({ name: "stolen" }),
      unchanged: async () => expect((await adminGet("/api/auth/api-keys")).map((k: { name: string }) => k.name)).not.toContain("stolen"),
    },
    { name: "delete an API key", method: "DELETE", path: () => `/api/auth/api-keys/${fixtures().keyId}` },
    { name: "list users", method: "GET", path: () => "/api/users" },
    { name: "read a person's watch of the workspace", method: "GET", path: ws("/watch") },
    { name: "watch the workspace's questions", method: "PUT", path: ws("/watch"), json: () => ({ watching: true }) },
    { name: "create a user", method: "POST", path: () => "/api/users", json: () => ({ username: "intruder", password: "intruder-pass" }) },
    {
      name: "change a user",
      method: "PATCH",
      path: () => `/api/users/${fixtures().userId}`,
      json: () => ({ is_admin: true }),
      unchanged: async () =>
        expect((await adminGet("/api/users")).find((u: { username: string }) => u.username === "bystander").is_admin).toBe(false),
    },
    { name: "list workspaces", method: "GET", path: () => "/api/workspaces" },
    { name: "create a workspace", method: "POST", path: () => "/api/workspaces", json: () => ({ name: "agent's own" }) },
    { name: "list members", method: "GET", path: ws("/members") },
    {
      name: "add a member",
      method: "POST",
      path: ws("/members"),
      json: () => ({ username: "bystander", role: "owner" }),
      unchanged: async () => expect(await adminGet(`/api/workspaces/${wsId()}/members`)).toHaveLength(1),
    },
    { name: "remove a member", method: "DELETE", path: () => `/api/workspaces/${wsId()}/members/${fixtures().userId}` },
    // The code host decides where agents' work is pushed.
    { name: "connect the code host", method: "PUT", path: ws("/codehost"), json: () => ({ installation_id: 1, repo: "o/r" }) },
    { name: "disconnect the code host", method: "DELETE", path: ws("/codehost") },
    { name: "connect GitHub", method: "PUT", path: ws("/github"), json: () => ({ installation_id: 1, repo: "o/r" }) },
    { name: "disconnect GitHub", method: "DELETE", path: ws("/github") },
    { name: "install the GitHub App", method: "POST", path: ws("/codehost/github/install") },
    { name: "change code-host settings", method: "PATCH", path: ws("/codehost/github/settings"), json: () => ({ merged_to_done: false }) },
    { name: "list the code host's repositories", method: "GET", path: ws("/codehost/github/repositories") },
    { name: "list GitHub deliveries", method: "GET", path: ws("/codehost/github/deliveries") },
    // An agent profile is a command the server runs; the repository is where agents work.
    { name: "create an agent profile", method: "POST", path: ws("/agents"), json: () => ({ name: "sh", kind: "command", command: "sh" }) },
    {
      name: "change an agent profile",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId()}/agents/${fixtures().agentId}`,
      json: () => ({ command: "sh" }),
      unchanged: async () => expect((await adminGet(`/api/workspaces/${wsId()}/agents/${fixtures().agentId}`)).command).toBe("true"),
    },
    {
      name: "choose the default agent profile",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId()}/agents/${fixtures().agentId}`,
      json: () => ({ is_default: true }),
    },
    { name: "delete an agent profile", method: "DELETE", path: () => `/api/workspaces/${wsId()}/agents/${fixtures().agentId}` },
    { name: "set the repository", method: "PUT", path: ws("/repository"), json: () => ({ url: "https://example.invalid/r.git" }) },
    { name: "remove the repository", method: "DELETE", path: ws("/repository") },
    // Webhooks send the workspace's activity to a URL of the owner's choosing.
    { name: "list webhooks", method: "GET", path: ws("/webhooks") },
    {
      name: "create a webhook",
      method: "POST",
      path: ws("/webhooks"),
      json: () => ({ url: "https://example.invalid/hook", events: ["*"] }),
    },
    { name: "read a webhook", method: "GET", path: ws(`/webhooks/${fakeId}`) },
    { name: "change a webhook", method: "PATCH", path: ws(`/webhooks/${fakeId}`), json: () => ({ enabled: false }) },
    { name: "delete a webhook", method: "DELETE", path: ws(`/webhooks/${fakeId}`) },
    { name: "list a webhook's deliveries", method: "GET", path: ws(`/webhooks/${fakeId}/deliveries`) },
    { name: "redeliver a webhook delivery", method: "POST", path: ws(`/webhooks/${fakeId}/deliveries/${fakeId}/redeliver`) },
    // What leaves for GitHub is a person's call.
    {
      name: "open a pull request",
      method: "POST",
      path: () => `/api/workspaces/${wsId()}/tasks/${fixtures().taskId}/pull-request`,
      json: () => ({}),
    },
    // A schedule keeps starting runs as the person who made it.
    {
      name: "create a schedule",
      method: "POST",
      path: ws("/schedules"),
      json: () => ({ name: "agent's cron", cron: "* * * * *" }),
      unchanged: async () => expect(await adminGet(`/api/workspaces/${wsId()}/schedules`)).toHaveLength(1),
    },
    {
      name: "change a schedule",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId()}/schedules/${fixtures().scheduleId}`,
      json: () => ({ cron: "* * * * *" }),
      unchanged: async () => expect((await schedule()).cron).toBe("0 3 * * *"),
    },
    {
      name: "delete a schedule",
      method: "DELETE",
      path: () => `/api/workspaces/${wsId()}/schedules/${fixtures().scheduleId}`,
      unchanged: async () => expect((await schedule()).id).toBe(fixtures().scheduleId),
    },
    {
      name: "trigger a schedule",
      method: "POST",
      path: () => `/api/workspaces/${wsId()}/schedules/${fixtures().scheduleId}/trigger`,
      unchanged: async () => expect((await schedule()).last_triggered_at).toBeNull(),
    },
    // Questions are for people, an agent's own permission requests included.
    {
      name: "answer a question",
      method: "POST",
      path: () => `/api/workspaces/${wsId()}/questions/${fixtures().questionId}/answer`,
      json: () => ({ answer: "yes" }),
      unchanged: async () => {
        const [question] = await adminGet(`/api/workspaces/${wsId()}/questions?task_id=${fixtures().taskId}`);
        expect(question).toMatchObject({ status: "open", answer: null, answered_by: null });
      },
    },
    // The App pushes a task's commits to its branch; a pr_url links it to a pull request.
    {
      name: "set a task's branch",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId()}/tasks/${fixtures().taskId}`,
      json: () => ({ branch: "release/x", title: "with a branch" }),
      unchanged: async () => expect(await task()).toMatchObject({ branch: null, title: "a person's task" }),
    },
    {
      name: "set a task's pr_url",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId()}/tasks/${fixtures().taskId}`,
      json: () => ({ pr_url: "https://github.com/someone/else/pull/7" }),
      unchanged: async () => expect((await task()).pr_url).toBeNull(),
    },
    {
      name: "clear a task's pr_url",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId()}/tasks/${fixtures().taskId}`,
      json: () => ({ pr_url: null }),
    },
    {
      name: "create a task with a pr_url",
      method: "POST",
      path: ws("/tasks"),
      json: () => ({ title: "linked by an agent", pr_url: "https://github.com/someone/else/pull/7" }),
      unchanged: async () => {
        const found = await adminGet(`/api/workspaces/${wsId()}/tasks?search=linked%20by%20an%20agent`);
        expect(found.items).toHaveLength(0);
      },
    },
  ];
}
