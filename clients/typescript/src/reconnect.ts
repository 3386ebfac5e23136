/**
 * What the resumable streams (a match's events, the account feed) share between their
 * connections: each connection ends when the caller aborts or when no line came for a while, and
 * a cut connection is opened again after a backoff, a bounded number of times in a row.
 */
import { backoff, sleep, type RetryPolicy } from './retry.js';

export interface Connection {
  /** Aborts when the caller's signal does, when idle, or on close. */
  readonly signal: AbortSignal;
  /** A line arrived: the idle clock starts again. */
  alive(): void;
  /** Ends the connection and lets go of the caller's signal. */
  close(): void;
}

/** One connection, aborted by `signal`, or with `idleReason` after `idleMs` without `alive()`. */
export function connection(signal: AbortSignal | undefined, idleMs: number, idleReason: string): Connection {
  const conn = new AbortController();
  const stop = () => conn.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  let idle: ReturnType<typeof setTimeout> | undefined;
  return {
    signal: conn.signal,
    alive() {
      clearTimeout(idle);
      idle = setTimeout(() => conn.abort(new Error(idleReason)), idleMs);
    },
    close() {
      clearTimeout(idle);
      signal?.removeEventListener('abort', stop);
      conn.abort();
    },
  };
}

/**
 * After the `failures`-th cut in a row (counting from 1): throws `failure` past `reconnects`,
 * else waits the backoff. False when the caller aborted while waiting.
 */
export async function beforeReconnect(
  failures: number,
  reconnects: number,
  policy: RetryPolicy,
  failure: unknown,
  signal?: AbortSignal,
): Promise<boolean> {
  if (failures > reconnects) throw failure;
  try {
    await sleep(backoff(policy, failures - 1), signal);
    return true;
  } catch {
    return false;
  }
}
