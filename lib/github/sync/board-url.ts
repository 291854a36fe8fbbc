import { apiUrl } from "@/lib/platform/runner-config";

/**
 * Where people open the board, for links the board writes elsewhere (a pull request's task link):
 * NEXTAUTH_URL when set (the address the administrator configured for people), else the address the
 * request came to, else where agents reach the API.
 */
export function boardUrl(request?: Request): string {
  const configured = process.env.NEXTAUTH_URL?.replace(/\/+$/, "");
  if (configured) return configured;
  return request ? new URL(request.url).origin : apiUrl();
}
