// Route bundles and the instrumentation bundle each get their own copy of every module, so the
// one runner of the process is reached through globalThis.

export interface RunnerHandle {
  wake(): void;
  cancel(executionId: string, reason: string): Promise<boolean>;
  isLocal(executionId: string): boolean;
  waitStarted(executionId: string, timeoutMs?: number): Promise<void>;
}

const state = globalThis as typeof globalThis & { __taskboardRunner?: RunnerHandle };

export function setRunnerHandle(handle: RunnerHandle | undefined) {
  state.__taskboardRunner = handle;
}

export function runnerHandle(): RunnerHandle | undefined {
  return state.__taskboardRunner;
}

/** Tells this process's runner that an execution was queued (others find it on their next poll). */
export function wakeRunner() {
  state.__taskboardRunner?.wake();
}
