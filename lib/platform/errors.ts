// The one error type route code throws; lib/api/handler.ts turns it into a response.
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === "string" ? detail : `HTTP ${status}`);
  }
}

export interface ValidationEntry {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export class ValidationError extends HttpError {
  constructor(readonly entries: ValidationEntry[]) {
    super(422, entries);
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const conflict = (detail: string) => new HttpError(409, detail);
export const forbidden = (detail = "Not enough permissions") => new HttpError(403, detail);
/** The 403 of an operation only people may do; `what` names it ("change schedules"). */
export function agentRefused(what: string | null): string {
  return `An agent token may not ${what ?? "do this"}: that is for people (docs/agents.md lists what an agent token may do)`;
}

export const unauthorized = (detail = "Not authenticated") => new HttpError(401, detail, { "WWW-Authenticate": "Bearer" });

/** A 4xx from code that is not ours (next-auth) in the API's format; anything else unchanged. */
export async function asApiError(response: Response): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  if (response.status < 400 || response.status >= 500 || type.includes("application/json")) return response;
  const text = (await response.text()).trim();
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  headers.delete("content-length");
  return new Response(JSON.stringify({ detail: text || response.statusText || `HTTP ${response.status}` }), {
    status: response.status,
    headers,
  });
}
