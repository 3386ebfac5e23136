/**
 * The kinds both APIs name in their requests and the service sends: a seat's webhook deliveries
 * and a player's account feed entries (the request schemas' enums, src/contract/requests.ts).
 */

/** The kinds of a seat's webhook delivery (the outbox rows of src/service/webhooks/notifications.ts). */
export const WEBHOOK_KINDS = ['your-turn', 'opponent-joined', 'match-ended', 'deadline-near'] as const;

/** The kinds of account feed entry (the triggers of migrations account_feed and tournaments write these names). */
export const FEED_KINDS = [
  'match-started',
  'your-turn',
  'match-ended',
  'challenge-received',
  'challenge-accepted',
  'challenge-declined',
  'challenge-canceled',
  'challenge-expired',
  'rematch-offered',
  'seek-paired',
  'tournament-round-started',
  'tournament-finished',
] as const;
export type FeedKind = (typeof FEED_KINDS)[number];
