/**
 * Server-Sent Events framing (WHATWG HTML, "Server-sent events") for the event stream, and the
 * Accept negotiation that picks it over NDJSON. `id:` carries the event's seq, so a browser's
 * EventSource sends it back as Last-Event-ID when it reconnects.
 */

export const SSE_CONTENT_TYPE = 'text/event-stream; charset=utf-8';
export const NDJSON_CONTENT_TYPE = 'application/x-ndjson; charset=utf-8';

/** SSE event names: one per kind of message, the details being in `data` (EventSource has no wildcard listener). */
export const SSE_EVENT = { matchEvent: 'match-event', end: 'end' } as const;

/** One event: `data` is one line of JSON (JSON.stringify never writes a newline). */
export function sseMessage(event: string, data: unknown, id?: number | string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: ignored by clients, keeps proxies from closing an idle connection. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

/**
 * Whether the Accept header prefers text/event-stream to NDJSON (q-values honoured; wildcards and
 * an absent header leave the default, NDJSON).
 */
export function prefersEventStream(accept: string | string[] | undefined): boolean {
  if (accept === undefined) return false;
  const q = new Map<string, number>();
  for (const range of (Array.isArray(accept) ? accept.join(',') : accept).split(',')) {
    const [type, ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    if (!type) continue;
    const qp = params.find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(type, Number.isFinite(value) ? value : 0);
  }
  const sse = q.get('text/event-stream') ?? 0;
  return sse > 0 && sse >= (q.get('application/x-ndjson') ?? 0);
}
