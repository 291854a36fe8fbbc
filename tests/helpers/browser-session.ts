// A browser's next-auth session for API tests: the credentials sign-in, and the cookies it sets.

export async function signIn(url: string, username: string, password: string) {
  const jar = new CookieJar();
  const csrfResponse = await fetch(`${url}/api/auth/csrf`);
  jar.take(csrfResponse);
  const { csrfToken } = await csrfResponse.json();
  const response = await fetch(`${url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, username, password, json: "true" }),
  });
  jar.take(response);
  if (!jar.has("next-auth.session-token")) throw new Error("no session cookie after sign-in");
  return jar;
}

/** Cookies by name, every one sent on every request (paths are ignored: the tests talk to one site). */
export class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair.indexOf("=");
      this.cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
  }
  has(name: string) {
    return Boolean(this.cookies.get(name));
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}
