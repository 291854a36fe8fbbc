import { z } from "zod";

export const username = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.@-]+$/, "letters, digits and _ . @ - only");

export const createUserBody = z.object({
  username,
  password: z.string().min(8).max(256),
  is_admin: z.boolean().default(false),
});

export const updateUserBody = z.object({
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
  is_admin: z.boolean(),
  disabled: z.boolean(),
  created_at: z.string(),
});
