import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { apiKey, apiKeyParams, createApiKeyBody, createdApiKey, loginBody, loginResult, refreshBody } from "@/lib/auth/schemas";
import { updateMeBody, user } from "@/lib/users/schemas";

export const authOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/auth/login",
    operationId: "login",
    summary: "Log in with username and password",
    tags: ["auth"],
    auth: false,
    body: loginBody,
    responses: {
      200: { description: "Access and refresh tokens", schema: loginResult },
      401: { description: "Wrong username or password" },
      403: { description: "The account is disabled, or password login is turned off (PASSWORD_LOGIN=false; docs/sso.md)" },
      429: { description: "Too many failed attempts from this address; see Retry-After" },
    },
  },
  {
    method: "post",
    path: "/api/auth/refresh",
    operationId: "refreshTokens",
    summary: "Trade a refresh token (once) for new tokens",
    tags: ["auth"],
    auth: false,
    body: refreshBody,
    responses: {
      200: { description: "New access and refresh tokens", schema: loginResult },
      401: { description: "Invalid, expired or already used refresh token" },
    },
  },
  {
    method: "post",
    path: "/api/auth/logout",
    operationId: "logout",
    summary: "Revoke the credential of this request (and its login's refresh tokens)",
    tags: ["auth"],
    responses: { 204: { description: "Revoked" } },
  },
  {
    method: "get",
    path: "/api/auth/me",
    operationId: "getCurrentUser",
    summary: "The authenticated user",
    tags: ["auth"],
    responses: { 200: { description: "The user", schema: user } },
  },
  {
    method: "patch",
    path: "/api/auth/me",
    operationId: "updateCurrentUser",
    summary: "Change your own display name (null: show the username); agent tokens are refused",
    tags: ["auth"],
    body: updateMeBody,
    responses: { 200: { description: "The user", schema: user }, 403: { description: "An agent token" } },
  },
  {
    method: "get",
    path: "/api/auth/api-keys",
    operationId: "listApiKeys",
    summary: "The caller's API keys, newest first (at most 500)",
    tags: ["auth"],
    responses: { 200: { description: "API keys (without secrets)", schema: z.array(apiKey) } },
  },
  {
    method: "post",
    path: "/api/auth/api-keys",
    operationId: "createApiKey",
    summary: "Create an API key; usable as a bearer token",
    tags: ["auth"],
    body: createApiKeyBody,
    responses: { 201: { description: "The key, with its secret shown once", schema: createdApiKey } },
  },
  {
    method: "delete",
    path: "/api/auth/api-keys/{key_id}",
    operationId: "deleteApiKey",
    summary: "Delete (revoke) one of the caller's API keys",
    tags: ["auth"],
    params: apiKeyParams,
    responses: {
      204: { description: "Deleted" },
      404: { description: "API key not found" },
    },
  },
];
