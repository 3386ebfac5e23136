/**
 * The async iterator a subscription resolver returns, fed by pushes (a store notification, the
 * event follower). Unlike an async generator, return() ends it at once even while a next() is
 * waiting, so a client's `complete` or a closed socket frees the subscription (and its watch)
 * without waiting for the next event.
 */
export class LiveQueue<T> implements AsyncIterableIterator<T> {
  private readonly items: T[] = [];
  private waiter: { resolve(r: IteratorResult<T>): void; reject(e: unknown): void } | null = null;
  /** No more pushes: what is queued is still delivered, then done (or the failure). */
  private ended = false;
  private failure: { error: unknown } | null = null;
  private closed = false;

  /** `onClose` runs once, when the iterator is finished for any reason. */
  constructor(private readonly onClose: () => void) {}

  push(value: T): void {
    if (this.ended) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.resolve({ value, done: false });
    } else this.items.push(value);
  }

  /** Ends after what is queued. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.settleWaiter();
  }

  /** Ends with an error (sent to the client as the subscription's error) after what is queued. */
  fail(error: unknown): void {
    if (this.ended) return;
    this.failure = { error };
    this.ended = true;
    this.settleWaiter();
  }

  next(): Promise<IteratorResult<T>> {
    if (this.items.length > 0) return Promise.resolve({ value: this.items.shift() as T, done: false });
    if (this.ended) return this.finish();
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.items.length = 0;
    this.failure = null;
    this.ended = true;
    this.settleWaiter();
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(): Promise<IteratorResult<T>> {
    return this.return();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private settleWaiter(): void {
    if (!this.waiter || this.items.length > 0) return;
    const w = this.waiter;
    this.waiter = null;
    this.finish().then(w.resolve, w.reject);
  }

  private finish(): Promise<IteratorResult<T>> {
    this.close();
    const f = this.failure;
    this.failure = null;
    return f ? Promise.reject(f.error) : Promise.resolve({ value: undefined, done: true });
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    this.onClose();
  }
}
