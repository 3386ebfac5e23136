/**
 * The drain on shutdown (docs/operations.md): listening stops at once, but connections that are
 * open stay open for a window, so that a request a keep-alive client sends on one gets the 503
 * `shutting-down` (with Connection: close) instead of a reset; the window ends early once every
 * client has gone. After it, sockets that turn idle are closed as they do (a response that was
 * under way when the drain began may still have promised keep-alive).
 */
import net from 'node:net';

/** Stops accepting connections, keeping the open ones (http.Server's own close() would also close the idle ones). */
export function stopListening(server: net.Server): void {
  if (server.listening) net.Server.prototype.close.call(server);
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
