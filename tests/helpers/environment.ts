/**
 * The environment as it is now; the function returned puts it back. In place, not as a new object:
 * Node and vitest's own stubs (`vi.stubEnv`) hold this one, and the files after this one in the
 * worker read it (vitest.config.mts, `isolate: false`). An unset variable is deleted again, not
 * assigned undefined, which would store the text "undefined".
 */
export function keepEnvironment(): () => void {
  const saved = { ...process.env };
  return () => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  };
}
