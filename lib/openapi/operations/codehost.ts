import type { OperationSpec } from "@/lib/openapi/types";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { codehostStatus, connectCodehostBody } from "@/lib/codehost/schemas";

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
      summary: "Connect the workspace to a GitHub App installation and repository (owners only)",
      tags: ["codehost"],
      params: workspaceParams,
      body: connectCodehostBody,
      responses: { 200: { description: "Connection status", schema: codehostStatus }, ...ownersOnly },
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
