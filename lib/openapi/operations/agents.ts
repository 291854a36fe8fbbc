import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { workspaceParams } from "@/lib/workspaces/schemas";
import {
  agentParams,
  agentPresetResponse,
  agentResponse,
  createAgentBody,
  agentKeyParams,
  fallbackAgentResponse,
  setAgentKeyBody,
  updateAgentBody,
} from "@/lib/agents/schemas";
import { repositoryResponse, setRepositoryBody } from "@/lib/repositories/schemas";

const agentNotFound = { 404: { description: "Workspace or agent profile not found" } };
const adminsOnly = { 403: { description: "Only administrators write agent profiles (owners may choose the default)" } };

export const agentOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/agents",
    operationId: "listAgents",
    summary: "The workspace's agent profiles, oldest first",
    tags: ["agents"],
    params: workspaceParams,
    responses: { 200: { description: "Agent profiles", schema: z.array(agentResponse) } },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/agents",
    operationId: "createAgent",
    summary: "Add an agent profile (administrators)",
    tags: ["agents"],
    params: workspaceParams,
    body: createAgentBody,
    responses: { 201: { description: "The profile", schema: agentResponse }, ...adminsOnly },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/agents/presets",
    operationId: "listAgentPresets",
    summary: "Ready-made profiles: Claude Code, Codex, Gemini CLI, OpenCode, the demo agent",
    tags: ["agents"],
    params: workspaceParams,
    responses: { 200: { description: "Presets", schema: z.array(agentPresetResponse) } },
  },
  {
    method: "put",
    path: "/api/workspaces/{id}/agents/{agent_id}/keys/{name}",
    operationId: "setAgentKey",
    summary: "Store a model key on a profile (owners): sealed, passed only to its runs, never shown again",
    tags: ["agents"],
    params: agentKeyParams,
    body: setAgentKeyBody,
    responses: { 200: { description: "The profile, its stored_keys naming the key", schema: agentResponse }, ...agentNotFound },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/agents/{agent_id}/keys/{name}",
    operationId: "deleteAgentKey",
    summary: "Remove a stored model key (owners)",
    tags: ["agents"],
    params: agentKeyParams,
    responses: { 200: { description: "The profile without the key", schema: agentResponse }, ...agentNotFound },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/agents/fallback",
    operationId: "getFallbackAgent",
    summary: "The agent a run gets when the workspace has no profile: AGENT_COMMAND, else the demo agent",
    tags: ["agents"],
    params: workspaceParams,
    responses: { 200: { description: "Which agent, and whether it is the demo", schema: fallbackAgentResponse } },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/agents/{agent_id}",
    operationId: "getAgent",
    summary: "One agent profile",
    tags: ["agents"],
    params: agentParams,
    responses: { 200: { description: "The profile", schema: agentResponse }, ...agentNotFound },
  },
  {
    method: "patch",
    path: "/api/workspaces/{id}/agents/{agent_id}",
    operationId: "updateAgent",
    summary: "Change an agent profile, or make it the default (`is_default: true` clears the others)",
    tags: ["agents"],
    params: agentParams,
    body: updateAgentBody,
    responses: { 200: { description: "The profile", schema: agentResponse }, ...adminsOnly, ...agentNotFound },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/agents/{agent_id}",
    operationId: "deleteAgent",
    summary: "Delete an agent profile (administrators)",
    tags: ["agents"],
    params: agentParams,
    responses: { 204: { description: "Deleted" }, ...adminsOnly, ...agentNotFound },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/repository",
    operationId: "getRepository",
    summary: "The git repository the workspace's agents work on",
    tags: ["agents"],
    params: workspaceParams,
    responses: { 200: { description: "The repository", schema: repositoryResponse }, 404: { description: "No repository connected" } },
  },
  {
    method: "put",
    path: "/api/workspaces/{id}/repository",
    operationId: "setRepository",
    summary:
      "Connect a git repository (owners; a path on the server: administrators), with the workspace's write-only credential; its address must pass the address guard, then git ls-remote checks it",
    tags: ["agents"],
    params: workspaceParams,
    body: setRepositoryBody,
    responses: {
      200: { description: "The repository", schema: repositoryResponse },
      403: { description: "Not an owner (or a local path without being an administrator)" },
      422: {
        description:
          "A refused URL or address (private, loopback, credentials inside, leading '-'), a credential that does not fit the URL, or 'could not read the repository: authentication failed / not found / unreachable'",
      },
    },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/repository",
    operationId: "deleteRepository",
    summary: "Disconnect the repository; the server's clone is removed",
    tags: ["agents"],
    params: workspaceParams,
    responses: { 204: { description: "Disconnected" }, 404: { description: "No repository connected" } },
  },
];
