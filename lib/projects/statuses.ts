// Shared by the API's schema and the browser's form; no zod here, so the browser bundle stays small.
export const PROJECT_STATUSES = ["active", "paused", "completed", "archived"] as const;
