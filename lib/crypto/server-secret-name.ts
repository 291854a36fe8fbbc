/**
 * The server's own secrets and credentials, by name: never handed to an agent, whatever a profile
 * asks for (they would give it the server itself, or the server user's accounts). The server's
 * settings by name, then anything that looks like a secret, a password, a private key or a token,
 * and the server user's SSH agent. Model API keys (ANTHROPIC_API_KEY, …) are not among them: passing
 * them is what env_passthrough is for (docs/agents.md).
 */
export const SERVER_SECRET_NAME =
  /^(DATABASE_URL|DATABASE_POOL_SIZE|TEST_DATABASE_URL|DATA_DIR|NEXTAUTH_.*|AUTH_.*|ADMIN_.*|GITHUB_APP_.*|__NEXT.*|NEXT_.*|SSH_AUTH_SOCK)$|SECRET|PASSWORD|PRIVATE_KEY|TOKEN/i;
