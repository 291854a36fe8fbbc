/** Where a client's sign-in returns to, as a person reads it: the host of its redirect URI. */
export function redirectHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
