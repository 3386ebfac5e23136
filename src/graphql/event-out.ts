/** An event as GraphQL's Event type carries it (queries, mutation results and subscriptions alike). */
import type { EventDto } from '../service/match/match-service.js';

export function eventOut(e: EventDto) {
  const data = e.event as { type?: string };
  return { seq: e.seq, actingSeat: e.actingSeat, source: e.source, type: data.type ?? 'unknown', data };
}
