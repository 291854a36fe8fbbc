import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { createUserBody, searchUsersQuery, updateUserBody, user, userMatch, userParams } from "@/lib/users/schemas";

const adminOnly = { 403: { description: "Only administrators may do this" } };

export const userOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/users",
    operationId: "listUsers",
    summary: "All users, oldest first (administrators only)",
    tags: ["users"],
    responses: { 200: { description: "Users", schema: z.array(user) }, ...adminOnly },
  },
  {
    method: "post",
    path: "/api/users",
    operationId: "createUser",
    summary: "Create a user (administrators only)",
    tags: ["users"],
    body: createUserBody,
    responses: {
      201: { description: "The user", schema: user },
      ...adminOnly,
      409: { description: "A user with that username already exists" },
    },
  },
  {
    method: "get",
    path: "/api/users/search",
    operationId: "searchUsers",
    summary:
      "Enabled users whose username or display name contains `q`, at most 20, names only: the people picker " +
      "(administrators, and owners of a workspace; with `workspace_id`, one the caller owns, its members are left out)",
    tags: ["users"],
    query: searchUsersQuery,
    responses: {
      200: { description: "Matches", schema: z.array(userMatch) },
      403: { description: "Neither an administrator nor the owner of a workspace (of that workspace, with workspace_id)" },
    },
  },
  {
    method: "patch",
    path: "/api/users/{user_id}",
    operationId: "updateUser",
    summary: "Change a user's password, display name, admin flag or disabled flag (administrators only)",
    tags: ["users"],
    params: userParams,
    body: updateUserBody,
    responses: {
      200: { description: "The user", schema: user },
      ...adminOnly,
      404: { description: "User not found" },
    },
  },
];
