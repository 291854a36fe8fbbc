// A process whose standard output or error is a pipe nobody reads any more (its parent died, a test
// runner timed out): every write fails with EPIPE, asynchronously, as an 'error' event. Unhandled,
// that event is an uncaught exception, which Next logs with console.error, which fails again: the
// process spins at full CPU and never reaches its SIGTERM handler. Measured: an orphaned test server
// still spinning minutes after SIGTERM. With a listener the failed write is dropped, and nothing else.

export function ignoreClosedOutput() {
  for (const stream of [process.stdout, process.stderr]) {
    if (stream.listenerCount("error") > 0) continue;
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
    });
  }
}
