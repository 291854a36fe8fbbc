import type { OperationSpec } from "@/lib/openapi/types";
import { workspaceParams } from "@/lib/workspaces/schemas";
import {
  codehostStatus,
  connectCodehostBody,
  deliveriesQuery,
  deliveriesResponse,
  githubSettings,
  githubSettingsPatch,
  installCallbackQuery,
  installationRepositoriesResponse,
  installResponse,
  webhookAnswer,
} from "@/lib/github/connection/schemas";
import { openPullRequestBody } from "@/lib/github/sync/schemas";
import { taskParams } from "@/lib/runs/schemas";
import { taskResponse } from "@/lib/tasks/schemas";

// The provider is GitHub: /codehost and /github are two spellings of the same operations.
export const codehostOperations: OperationSpec[] = (["codehost", "github"] as const).flatMap((segment): OperationSpec[] => {
  const name = segment === "codehost" ? "Codehost" : "Github";
  const ownersOnly = { 403: { description: "Only workspace owners may do this" } };
  return [
    {
      method: "get",
      path: `/api/workspaces/{id}/${segment}/status`,
      operationId: `get${name}Status`,
      summary: "Code-host (GitHub) connection status of the workspace",
      tags: ["codehost"],
      params: workspaceParams,
      responses: { 200: { description: "Connection status", schema: codehostStatus } },
    },
    {
      method: "put",
      path: `/api/workspaces/{id}/${segment}`,
      operationId: `connect${name}`,
      summary:
        "Connect the workspace to a repository of the installation Connect GitHub recorded (owners); naming another installation is for server administrators",
      tags: ["codehost"],
      params: workspaceParams,
      body: connectCodehostBody,
      responses: {
        200: { description: "Connection status", schema: codehostStatus },
        400: { description: "The repository is not one the installation can access" },
        403: {
          description:
            "Only workspace owners may do this; only server administrators may name an installation Connect GitHub did not record",
        },
        409: { description: "No installation recorded yet (connect GitHub first), or the GitHub App is not configured" },
      },
    },
    {
      method: "delete",
      path: `/api/workspaces/{id}/${segment}`,
      operationId: `disconnect${name}`,
      summary: "Disconnect the workspace from its repository (owners only)",
      tags: ["codehost"],
      params: workspaceParams,
      responses: { 204: { description: "Disconnected" }, ...ownersOnly },
    },
  ];
});

// GitHub's side of the connection: webhooks and the App installation flow.
export const githubOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/webhooks/github",
    operationId: "receiveGithubWebhook",
    summary: "A GitHub App webhook delivery, authenticated by X-Hub-Signature-256 (HMAC-SHA256 of the body with GITHUB_WEBHOOK_SECRET)",
    tags: ["codehost"],
    auth: false,
    responses: {
      200: { description: "A redelivery: nothing changed", schema: webhookAnswer },
      202: { description: "Stored and applied; calls to GitHub continue after the answer", schema: webhookAnswer },
      400: { description: "Signed, but X-GitHub-Event, X-GitHub-Delivery or the JSON body is missing or malformed" },
      401: { description: "Missing or wrong signature, or no GITHUB_WEBHOOK_SECRET: nothing was stored" },
      413: { description: "A body larger than GitHub sends (25 MiB)" },
    },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/codehost/github/install",
    operationId: "startGithubInstall",
    summary: "Start connecting GitHub: the App's installation page and a signed state (owners only, not agent tokens)",
    tags: ["codehost"],
    params: workspaceParams,
    responses: {
      200: { description: "Send the user to install_url", schema: installResponse },
      403: { description: "Only workspace owners may do this" },
      409: {
        description:
          "The GitHub App, or its client id and secret (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET), are not configured on this server",
      },
    },
  },
  {
    method: "get",
    path: "/api/codehost/github/callback",
    operationId: "githubInstallCallback",
    summary:
      "The App's callback URL after installing it (user authorization requested during installation): trades `code` for a user token and records the installation on the workspace named by the state when GitHub lists it among that user's installations",
    tags: ["codehost"],
    query: installCallbackQuery,
    responses: {
      303: { description: "Recorded; redirects to the workspace's settings page to pick a repository" },
      400: { description: "The state is malformed, expired or not issued here; no code, or GitHub refused it" },
      403: {
        description:
          "The state was issued to another user, the user is no longer an owner of the workspace, or GitHub does not list the installation among the user's",
      },
      409: { description: "The GitHub App or its client id and secret are not configured on this server" },
      502: { description: "GitHub could not be reached" },
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/codehost/github/repositories",
    operationId: "listGithubRepositories",
    summary: "The repositories the workspace's GitHub installation can see, to pick one with PUT …/codehost (owners only)",
    tags: ["codehost"],
    params: workspaceParams,
    responses: {
      200: { description: "Repositories", schema: installationRepositoriesResponse },
      403: { description: "Only workspace owners may do this" },
      409: { description: "No installation recorded yet, or the GitHub App is not configured" },
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/codehost/github/deliveries",
    operationId: "listGithubDeliveries",
    summary: "The newest webhook deliveries about the workspace's repository, with what became of them (owners only)",
    tags: ["codehost"],
    params: workspaceParams,
    query: deliveriesQuery,
    responses: {
      200: { description: "Newest first", schema: deliveriesResponse },
      403: { description: "Only workspace owners may do this" },
    },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/codehost/github/settings",
    operationId: "getGithubSettings",
    summary: "How the workspace follows GitHub",
    tags: ["codehost"],
    params: workspaceParams,
    responses: { 200: { description: "Settings", schema: githubSettings } },
  },
  {
    method: "patch",
    path: "/api/workspaces/{id}/codehost/github/settings",
    operationId: "updateGithubSettings",
    summary: "Change how the workspace follows GitHub (owners only)",
    tags: ["codehost"],
    params: workspaceParams,
    body: githubSettingsPatch,
    responses: { 200: { description: "Settings", schema: githubSettings }, 403: { description: "Only workspace owners may do this" } },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/tasks/{task_id}/pull-request",
    operationId: "openTaskPullRequest",
    summary:
      "Push the task's branch and open a pull request on the connected GitHub repository (the task's title; the last successful run's report and the task's link as body); links the task and moves it to in_review (not agent tokens)",
    tags: ["codehost"],
    params: taskParams,
    body: openPullRequestBody,
    responses: {
      201: { description: "Opened; the linked task", schema: taskResponse },
      200: { description: "GitHub already had an open pull request for the branch: linked to it; the linked task", schema: taskResponse },
      403: { description: "Agent tokens may not do this" },
      404: { description: "Workspace or task not found, or the caller is not a member of the workspace" },
      409: {
        description:
          "No GitHub repository connected or no App configured, the task has no branch or already an open pull request, the branch has no commits beyond the base, or git or GitHub refused (in words)",
      },
      502: { description: "GitHub failed (a 5xx or its rate limit) while opening the pull request: try again (in words)" },
    },
  },
];
