import { z } from "zod";

export const username = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.@-]+$/, "letters, digits and _ . @ - only");

/** A person's name as others see it; null: their username. */
export const displayName = z.string().trim().min(1).max(100).nullable();

/** Where Slack (by email) and mail find the person; stored lower-cased, one user per address. */
export const email = z
  .email()
  .max(254)
  .transform((value) => value.toLowerCase())
  .nullable()
  .describe("The person's email address: Slack finds them by it (docs/slack.md); null: none");

export const createUserBody = z.object({
  username,
  display_name: displayName.optional(),
  email: email.optional(),
  password: z.string().min(8).max(256),
  is_admin: z.boolean().default(false),
});

export const updateUserBody = z.object({
  display_name: displayName.optional(),
  email: email.optional(),
  password: z.string().min(8).max(256).optional(),
  is_admin: z.boolean().optional(),
  disabled: z.boolean().optional(),
});

export const userParams = z.object({ user_id: z.string() });

export const setupBody = z.object({
  username,
  password: z.string().min(8).max(256),
  code: z
    .string()
    .max(64)
    .optional()
    .describe("The setup code from the server's log; needed unless the request comes from the server's own machine"),
});

export const user = z.object({
  id: z.string(),
  username: z.string(),
  display_name: z.string().nullable(),
  email: z.string().nullable(),
  is_admin: z.boolean(),
  disabled: z.boolean(),
  created_at: z.string(),
});

/** What a person changes about themself (PATCH /api/auth/me). */
export const updateMeBody = z.object({ display_name: displayName.optional(), email: email.optional() });

/** The people picker's search: part of a username or display name. */
export const searchUsersQuery = z.object({
  q: z.string().trim().max(64).default(""),
  workspace_id: z.string().optional().describe("Leave out the workspace's current members"),
});

/** What any workspace owner may learn of another user: no more than a name. */
export const userMatch = z.object({ id: z.string(), username: z.string(), display_name: z.string().nullable() });
