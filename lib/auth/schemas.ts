import { z } from "zod";

// Bounded before anything is hashed or looked up (lib/auth/login.ts has the same numbers).
export const loginBody = z.object({
  username: z.string().max(64),
  password: z.string().max(256),
});

export const loginResult = z.object({
  access_token: z.string(),
  token_type: z.literal("bearer"),
  expire_days: z.int(),
  refresh_token: z.string(),
});

export const refreshBody = z.object({ refresh_token: z.string().min(1) });

export const createApiKeyBody = z.object({
  name: z.string().trim().min(1).max(100),
  expires_in_days: z.int().min(1).max(3650).nullable().optional(),
});

export const apiKeyParams = z.object({ key_id: z.string() });

export const apiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});

export const createdApiKey = apiKey.extend({
  key: z.string().describe("The secret. Shown only in this response; store it now."),
});
