/**
 * When a request may be sent again, and how long to wait first. Only the cases where a second
 * send cannot do anything twice are retried:
 * - a network error (no answer at all), for reads and for actions, which always carry an
 *   Idempotency-Key: if the first send did arrive, the retry gets its stored answer back;
 * - a 503 that says when to come back (Retry-After): the server did not act on the request.
 * Creating and joining matches have no idempotency key on the server, so only the second case
 * applies to them (a lost answer to a create could otherwise create two matches).
 */

export interface RetryPolicy {
  /** Sends after the first one (0 = never retry). */
  retries: number;
  /** First wait after a network error; doubled each time, up to maxDelayMs. */
  baseDelayMs: number;
  /** Longest wait, including a server's Retry-After. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 250, maxDelayMs: 10_000 };

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const done = () => {
      signal?.removeEventListener('abort', abort);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** Exponential backoff with jitter (so that many clients cut off at once do not return at once). */
export function backoff(policy: RetryPolicy, attempt: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** A 503 with Retry-After: the seconds to wait, or undefined when the answer is not one. */
export function retryAfterMs(response: Response, policy: RetryPolicy): number | undefined {
  if (response.status !== 503) return undefined;
  const header = response.headers.get('retry-after');
  if (header === null) return undefined;
  const seconds = Number(header);
  // Retry-After may also be an HTTP date.
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), policy.maxDelayMs) : undefined;
}

/**
 * Runs `send` until it answers with something other than a retryable 503, retrying network
 * errors only when `networkSafe` (the request is idempotent). The last failure is what throws.
 */
export async function withRetries(
  send: () => Promise<Response>,
  opts: { policy: RetryPolicy; networkSafe: boolean; signal?: AbortSignal | undefined },
): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await send();
    } catch (err) {
      if (opts.signal?.aborted || !opts.networkSafe || attempt >= opts.policy.retries) throw err;
      await sleep(backoff(opts.policy, attempt), opts.signal);
      continue;
    }
    const wait = attempt < opts.policy.retries ? retryAfterMs(response, opts.policy) : undefined;
    if (wait === undefined) return response;
    // The body of a response we drop is read to the end so the connection can be reused.
    await response.body?.cancel().catch(() => undefined);
    await sleep(wait, opts.signal);
  }
}
