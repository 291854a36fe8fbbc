// Node options for every process a test run starts that runs WebAssembly: the vitest workers, the
// test servers (scripts/lib/server.mjs reads them from TASKBOARD_SERVER_NODE_ARGS, which
// tests/setup/database-setup.ts sets) and the browser tests' server.
//
// PGlite (PostgreSQL compiled to WebAssembly) and Prisma's query compiler are WebAssembly. By
// default V8 compiles each function with its baseline compiler (Liftoff), then again with its
// optimising one (TurboFan) once the function is hot, on background threads. A test process lives
// seconds to minutes, so it pays for that second compile and rarely gets it back: a test server's
// start took 1.6 s of CPU instead of 3.0 s on PGlite, and 1.1 s instead of 1.6 s on PostgreSQL, and
// the whole PGlite pass a fifth to a quarter less CPU (docs/testing.md, sixteenth session). The product
// itself (`npm start`, the benchmarks) keeps V8's default: a long-lived server should earn it back.
export const TEST_NODE_ARGS = ["--liftoff-only"];
