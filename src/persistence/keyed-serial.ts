/**
 * One at a time per key, on this node: the callers behind the first wait here, in memory, rather
 * than each on a pooled database connection blocked on the same lock (a burst of 100 seeks to one
 * pool held every connection waiting on its advisory lock, and unrelated requests got 503). The
 * database lock still decides between nodes; this only keeps a node's waiters off the pool.
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    // Whether the one before succeeded or failed, this one runs next.
    const result = before.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with work queued or running (tests). */
  get size(): number {
    return this.tails.size;
  }
}
