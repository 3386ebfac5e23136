/**
 * The drain on shutdown (docs/operations.md): listening stops as soon as the connections already
 * queued in the listening socket are accepted (closing it with some still queued would have the
 * kernel reset them), but connections that are open stay open for a window, so that a request a keep-alive client sends on one gets the 503
 * `shutting-down` (with Connection: close) instead of a reset; the window ends early once every
 * client has gone. After it, sockets that turn idle are closed as they do (a response that was
 * under way when the drain began may still have promised keep-alive).
 */
import net from 'node:net';

/** Stops accepting connections, keeping the open ones (http.Server's own close() would also close the idle ones). */
export function stopListening(server: net.Server): void {
  if (server.listening) net.Server.prototype.close.call(server);
}

/**
 * Stops accepting connections once a turn of the event loop accepted none: every connection that
 * was in the accept queue has then been accepted (the loop accepts all that are queued each time it
 * polls the listening socket), and gets an answer on its open socket. Connections arriving all
 * along keep it listening, at most `maxMs`.
 */
export async function stopListeningOnceQueueEmpty(server: net.Server, maxMs: number): Promise<void> {
  let accepted = 0;
  const count = () => void accepted++;
  server.on('connection', count);
  try {
    const until = Date.now() + maxMs;
    do {
      accepted = 0;
      // A timer, not setImmediate: it fires only after the loop has polled its sockets again.
      await new Promise((r) => setTimeout(r, 10));
    } while (accepted > 0 && Date.now() < until);
  } finally {
    server.off('connection', count);
  }
  stopListening(server);
}

const openConnections = (server: net.Server) => new Promise<number>((resolve) => server.getConnections((err, n) => resolve(err ? 0 : n)));

/** Resolves once `server` has no open connection, or after `windowMs`, whichever comes first. */
export async function drained(server: net.Server, windowMs: number): Promise<void> {
  const until = Date.now() + windowMs;
  for (let left = windowMs; left > 0 && (await openConnections(server)) > 0; left = until - Date.now()) {
    await new Promise((r) => setTimeout(r, Math.min(25, left)));
  }
}

/** Closes idle sockets every 100 ms until stopped: those whose last response ended after the drain began. */
export function closeIdleUntilStopped(server: { closeIdleConnections(): void }): () => void {
  const timer = setInterval(() => server.closeIdleConnections(), 100);
  timer.unref();
  return () => clearInterval(timer);
}
