// Runs once when the server process starts (not during `next build`): open and migrate the
// database so the first request is fast and a refused PGlite directory fails the start loudly.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { ignoreClosedOutput } = await import("./lib/platform/closed-output");
  ignoreClosedOutput();
  const { installHttpGuard } = await import("./lib/api/http-guard");
  installHttpGuard();
  const { stampPeerAddresses } = await import("./lib/auth/client-address");
  stampPeerAddresses();
  const { stampConnections } = await import("./lib/server/connections");
  stampConnections();
  const { startServer } = await import("./lib/server/start");
  await startServer();
}
