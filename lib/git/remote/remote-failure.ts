// git's failure against a remote, told in words a person can act on, without relaying what the
// remote answered (its body, headers or banner): the answer of an internal service behind a URL an
// owner typed would otherwise come back to them.

export type RemoteFailure = "authentication failed" | "not found" | "unreachable";

const AUTHENTICATION =
  /Authentication failed|could not read (Username|Password)|terminal prompts disabled|returned error: 40[13]|HTTP 40[13]|Permission denied \(|no such identity|Invalid username or password/i;
const NOT_FOUND =
  /returned error: 404|HTTP 404|not found|does not appear to be a git repository|does not exist|No such file or directory|not a git repository/i;

export function remoteFailure(message: string): RemoteFailure {
  if (AUTHENTICATION.test(message)) return "authentication failed";
  if (NOT_FOUND.test(message)) return "not found";
  return "unreachable";
}

export function remoteFailureMessage(message: string): string {
  return `could not read the repository: ${remoteFailure(message)}`;
}
