import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import {
  acceptedInvitation,
  acceptInvitationBody,
  createdInvitation,
  createInvitationBody,
  invitation,
  invitationParams,
  invitationPreview,
  tokenParams,
} from "@/lib/invitations/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

const ownersOnly = { 403: { description: "Only workspace owners may do this (agent tokens never)" } };
const closed = {
  404: { description: "This invitation link is not valid" },
  410: { description: "The invitation was used, revoked or has expired (which of them, in words)" },
};

export const invitationOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/invitations",
    operationId: "listInvitations",
    summary: "The workspace's open invitations, newest first (owners only; the links are not shown again)",
    tags: ["invitations"],
    params: workspaceParams,
    responses: {
      200: { description: "Open invitations", schema: z.array(invitation) },
      ...ownersOnly,
      404: { description: "Workspace not found" },
    },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/invitations",
    operationId: "createInvitation",
    summary:
      "Invite someone with a role (owners only): a single-use link that expires (INVITATION_EXPIRE_DAYS, default 7). With `email` " +
      "and SMTP configured, the link is also mailed, after the answer.",
    tags: ["invitations"],
    params: workspaceParams,
    body: createInvitationBody,
    responses: {
      201: { description: "The invitation and its link (shown this once)", schema: createdInvitation },
      ...ownersOnly,
      404: { description: "Workspace not found" },
    },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/invitations/{invitation_id}",
    operationId: "revokeInvitation",
    summary: "Revoke an open invitation (owners only); its link answers 410 from then on",
    tags: ["invitations"],
    params: invitationParams,
    responses: { 204: { description: "Revoked" }, ...ownersOnly, 404: { description: "Workspace or open invitation not found" } },
  },
  {
    method: "get",
    path: "/api/invitations/{token}",
    operationId: "previewInvitation",
    summary: "What an invitation link opens: the workspace's name and the role (no credential; the token is the secret)",
    tags: ["invitations"],
    auth: false,
    params: tokenParams,
    responses: { 200: { description: "The invitation", schema: invitationPreview }, ...closed },
  },
  {
    method: "post",
    path: "/api/invitations/{token}/accept",
    operationId: "acceptInvitation",
    summary:
      "Join the workspace with the invitation's role: either signed in (Bearer or the browser's session) with an empty body, " +
      "or with no credential and a new account's `username` and `password` (and `display_name`). Spends the link.",
    tags: ["invitations"],
    auth: false,
    params: tokenParams,
    body: acceptInvitationBody,
    responses: {
      201: { description: "Joined", schema: acceptedInvitation },
      401: { description: "No account fields and no valid credential" },
      403: { description: "An agent token; or a new account while password login is off" },
      409: { description: "Already a member (the link stays unused), or the username is taken" },
      ...closed,
    },
  },
];
