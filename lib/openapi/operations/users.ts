import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { createUserBody, updateUserBody, user, userParams } from "@/lib/users/schemas";

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
    method: "patch",
    path: "/api/users/{user_id}",
    operationId: "updateUser",
    summary: "Change a user's password, admin flag or disabled flag (administrators only)",
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
