/** git was not run because the repository or the worktree was tampered with; the message says how, in words. */
export class GitRefused extends Error {}
