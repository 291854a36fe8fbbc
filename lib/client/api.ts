// The browser's way to the API: the same routes scripts use, authenticated by the session cookie.

export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(describeDetail(status, detail));
  }
}

export async function api<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  const response = await fetch(path, {
    ...rest,
    headers: { ...(json !== undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  if (response.status === 204) return undefined as T;
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new ApiClientError(response.status, body?.detail ?? response.statusText);
  return body as T;
}

/** Puts an API error into words a person can act on. */
function describeDetail(status: number, detail: unknown): string {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    return detail
      .map((entry) => {
        const field = Array.isArray(entry?.loc) ? entry.loc.slice(1).join(".") : "";
        return field ? `${field}: ${entry.msg}` : String(entry?.msg ?? "");
      })
      .join("; ");
  }
  return `Request failed (${status})`;
}
