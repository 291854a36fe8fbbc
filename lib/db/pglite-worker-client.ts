import path from "node:path";
import { Worker } from "node:worker_threads";
import { Mutex, messages, parse, protocol, types, type QueryOptions, type Results, type Transaction } from "@electric-sql/pglite";
import { concat, plainRows } from "@/lib/db/pglite-wire";

// The embedded database, run in a thread of its own (lib/db/pglite-worker.mjs), seen from the
// server's main thread. In the main thread PGlite's WebAssembly ran every query there, where every
// request is also read and answered: the column page reached half of /api/health's throughput
// (docs/PERFORMANCE.md, "The embedded database in a thread of its own").
//
// This class offers what the rest of the server used of PGlite (query, exec, transaction, listen,
// the raw protocol for lib/db/pglite-sql.ts), with PGlite's meaning. PGlite is ONE session, so:
// - a transaction holds the session: other callers wait here, in the main thread, until it ends;
// - a call outside transactions is sent at once, behind those already sent (the thread answers in
//   order), so the thread has the next one while the main thread handles an answer;
// - the answers are the protocol's bytes, parsed here: database errors, notifications (LISTEN) and
//   result types are handled as PGlite does, with the parsers of this side.
//
// Notices are dropped (PGlite only logs them in debug mode).

type Backend = messages.BackendMessage;
type Pending = { resolve: (data: Uint8Array) => void; reject: (error: Error) => void };
type Request =
  { kind: "raw"; message: Uint8Array } | { kind: "query"; text: string; params: unknown[]; paramTypes?: number[] } | { kind: "close" };
type Answer = { id: number; data?: Uint8Array; error?: { message: string; stack?: string } } & {
  ready?: true;
  failed?: { message: string };
};

/** What runs a statement: the database itself, or a transaction's client. */
export interface Queryable {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string, options?: QueryOptions): Promise<Results[]>;
}

export class PGliteWorker implements Queryable {
  serializers: Record<number | string, (value: unknown) => string> = { ...types.serializers };
  parsers: Record<number | string, (text: string, typeId?: number) => unknown> = { ...types.parsers };
  readonly waitReady: Promise<void>;
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** Held by a transaction from BEGIN to its end, and for a moment by each call outside one. */
  readonly #session = new Mutex();
  #failure: Error | null = null;
  /** Callers under way (sent, or waiting for the session), and who waits for there to be none (idle). */
  #busy = 0;
  #ready = false;
  readonly #idleWaiters = new Set<() => void>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();

  /** `dataDir` undefined: an in-memory database (tests). `sharedBuffersMb`: PostgreSQL's shared_buffers (its default, 128 MB, when unset). */
  constructor(dataDir?: string, { sharedBuffersMb }: { sharedBuffersMb?: number } = {}) {
    const file = path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "db", "pglite-worker.mjs");
    this.#worker = new Worker(file, { workerData: { dataDir, sharedBuffersMb } });
    let started: (value: void) => void;
    let failed: (error: Error) => void;
    const starting = new Promise<void>((resolve, reject) => ((started = resolve), (failed = reject)));
    this.#worker.on("message", (answer: Answer) => {
      if (answer.ready) return started();
      if (answer.failed) return failed(new Error(`The embedded database did not start: ${answer.failed.message}`));
      const pending = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      if (answer.error) pending?.reject(Object.assign(new Error(answer.error.message), { stack: answer.error.stack }));
      else pending?.resolve(answer.data!);
    });
    this.#worker.on("error", (error) => this.#fail(error));
    this.#worker.on("exit", (code) => {
      const error = new Error(`The embedded database's thread ended (exit code ${code})`);
      failed(error);
      this.#fail(error);
    });
    this.waitReady = starting.then(() => this.#initArrayTypes()).then(() => void (this.#ready = true));
    this.waitReady.catch(() => undefined); // reported to whoever awaits it
  }

  query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return this.#alone(() => this.#query<T>(text, params, options));
  }

  exec(text: string, options?: QueryOptions): Promise<Results[]> {
    return this.#alone(() => this.#exec(text, options));
  }

  /** PGlite's transaction(): BEGIN, the callback's statements (on `tx` only), COMMIT or, on an error, ROLLBACK. */
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#counted(() => this.#session.runExclusive(() => this.#transaction(callback)));
  }

  async #transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await this.#exec("BEGIN");
    let closed = false;
    const open = () => {
      if (closed) throw new Error("Transaction is closed");
    };
    const tx = {
      query: async <R>(text: string, params?: unknown[], options?: QueryOptions) => (open(), this.#query<R>(text, params ?? [], options)),
      exec: async (text: string, options?: QueryOptions) => (open(), this.#exec(text, options)),
      rollback: async () => {
        open();
        await this.#exec("ROLLBACK");
        closed = true;
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    try {
      const result = await callback(tx);
      if (!closed) {
        closed = true;
        await this.#exec("COMMIT");
      }
      return result;
    } catch (error) {
      if (!closed) {
        closed = true;
        await this.#exec("ROLLBACK");
      }
      throw error;
    }
  }

  /** Protocol messages (ending in Sync) as one unit, outside any transaction: lib/db/pglite-sql.ts's prepared statements. */
  execAlone(message: Uint8Array): Promise<Backend[]> {
    return this.#alone(async () => this.#parse(await this.#call({ kind: "raw", message })));
  }

  /**
   * execAlone's data rows, each column as its text (null for NULL): for a statement whose result
   * description the caller knows. A plain answer (rows, their end, ready) is read straight from the
   * bytes, without building a message object per row or copying each value twice as the protocol's
   * parser does; anything else (an error, a notification, a notice) goes through execAlone's parse.
   */
  execRows(message: Uint8Array): Promise<(string | null)[][]> {
    return this.#alone(async () => {
      const data = await this.#call({ kind: "raw", message });
      return plainRows(data) ?? this.#parse(data).flatMap((m) => (m instanceof messages.DataRowMessage ? [m.fields] : []));
    });
  }

  /**
   * Resolves once no caller is under way or waiting (looked at again a turn of the event loop
   * later, so that the next statement of a request in progress counts), or after `maxMs`:
   * lib/db/requests-first.ts lets background writes go then.
   */
  idle(maxMs: number): Promise<void> {
    if (this.#busy === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        this.#idleWaiters.delete(go);
        resolve();
      };
      const timer = setTimeout(go, maxMs);
      this.#idleWaiters.add(go);
    });
  }

  /** PGlite's listen(): the callback gets each notification's payload on `channel`. */
  async listen(channel: string, callback: (payload: string) => void): Promise<void> {
    const name = channel.startsWith('"') && channel.endsWith('"') ? channel.slice(1, -1) : channel.toLowerCase();
    if (!this.#listeners.has(name)) this.#listeners.set(name, new Set());
    this.#listeners.get(name)!.add(callback);
    await this.exec(`LISTEN ${channel}`);
  }

  /** Closes the database (a clean shutdown: no recovery at the next start) and ends the thread. */
  async close(): Promise<void> {
    await this.waitReady.catch(() => undefined);
    if (!this.#failure) await this.#session.runExclusive(() => this.#call({ kind: "close" })).catch(() => undefined);
    await this.#worker.terminate();
  }

  /** PGlite's array types: a parser and a serializer for the array of each type in pg_type. */
  async #initArrayTypes() {
    const [{ rows }] = await this.#exec(ARRAY_TYPES);
    for (const type of rows as { oid: number; typarray: number }[]) {
      this.serializers[type.typarray] = (x) => types.arraySerializer(x, this.serializers[type.oid], type.typarray);
      this.parsers[type.typarray] = (x) => types.arrayParser(x, this.parsers[type.oid], type.typarray);
    }
  }

  /** A call outside transactions: sent once no transaction holds the session, then awaited without holding it. */
  #alone<T>(send: () => Promise<T>): Promise<T> {
    return this.#counted(async () => {
      // The session free (the usual case): sent now, without the lock's round of promises.
      if (!this.#session.isLocked()) return send();
      let answer!: Promise<T>;
      await this.#session.runExclusive(async () => {
        answer = send();
      });
      return answer;
    });
  }

  async #counted<T>(call: () => Promise<T>): Promise<T> {
    this.#busy++;
    try {
      if (!this.#ready) await this.waitReady;
      return await call();
    } finally {
      if (--this.#busy === 0 && this.#idleWaiters.size > 0)
        setImmediate(() => {
          if (this.#busy === 0) for (const go of this.#idleWaiters) go();
        });
    }
  }

  async #query<T>(text: string, params: unknown[], options?: QueryOptions): Promise<Results<T>> {
    if (options?.blob) throw new Error("Blobs (COPY … /dev/blob) are not supported by the embedded database's thread");
    try {
      const backend = await this.#run({ kind: "query", text, params, paramTypes: options?.paramTypes });
      return parse.parseResults(backend, this.parsers, options)[0] as Results<T>;
    } catch (error) {
      throw withQuery(error, text, params, options);
    }
  }

  async #exec(text: string, options?: QueryOptions): Promise<Results[]> {
    try {
      const backend = await this.#run({ kind: "raw", message: concat(protocol.serialize.query(text), protocol.serialize.sync()) });
      return parse.parseResults(backend, this.parsers, options);
    } catch (error) {
      throw withQuery(error, text, undefined, options);
    }
  }

  /** Sends a request, parses the answer, passes notifications on and throws the first database error. */
  async #run(request: Request): Promise<Backend[]> {
    return this.#parse(await this.#call(request));
  }

  #parse(data: Uint8Array): Backend[] {
    const backend: Backend[] = [];
    let failure: messages.DatabaseError | null = null;
    new protocol.Parser().parse(data, (message) => {
      if (message instanceof messages.DatabaseError) failure ??= message;
      else if (message instanceof messages.NotificationResponseMessage) this.#notify(message);
      backend.push(message);
    });
    if (failure) throw failure;
    return backend;
  }

  #call(request: Request): Promise<Uint8Array> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    const answer = new Promise<Uint8Array>((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    this.#worker.postMessage({ id, ...request });
    return answer;
  }

  #notify(message: messages.NotificationResponseMessage) {
    // After the caller's own code, as PGlite does.
    for (const callback of this.#listeners.get(message.channel) ?? []) queueMicrotask(() => callback(message.payload));
  }

  #fail(error: Error) {
    this.#failure ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

const ARRAY_TYPES = `
  SELECT b.oid, b.typarray
  FROM pg_catalog.pg_type a
  LEFT JOIN pg_catalog.pg_type b ON b.oid = a.typelem
  WHERE a.typcategory = 'A'
  GROUP BY b.oid, b.typarray
  ORDER BY b.oid`;

/** As PGlite's errors: the statement, its parameters and options on the error. */
function withQuery(error: unknown, query: string, params: unknown[] | undefined, queryOptions: QueryOptions | undefined) {
  if (error instanceof messages.DatabaseError) Object.assign(error, { query, params, queryOptions });
  return error;
}
