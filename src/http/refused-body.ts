/**
 * A body refused as too large (413) is read and thrown away, up to a bound, before the answer is
 * sent: a client still sending when the server answers and closes meets a reset (`fetch` reports
 * EPIPE, never the 413).
 */
import type { IncomingMessage } from 'node:http';

/**
 * How much of a refused body is drained: 32 times the body limit (256 KiB). A body declared
 * larger is answered at once and its socket closed; one sent without a length is drained up to
 * this much, then answered and closed the same way.
 */
export const REFUSED_BODY_DRAIN_BYTES = 8 * 1024 * 1024;

/** Reads and discards the rest of `req`'s body, up to `limit` bytes; resolves at its end, on an error, or past the limit. */
export function drainRefusedBody(req: IncomingMessage, limit = REFUSED_BODY_DRAIN_BYTES): Promise<void> {
  if (req.complete || req.readableEnded || req.destroyed) return Promise.resolve();
  if (Number(req.headers['content-length']) > limit) return Promise.resolve();
  return new Promise((resolve) => {
    let read = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > limit) done();
    };
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}
