/**
 * The identifiers and keys both APIs take, with one rule each: a REST path, header or query and
 * the GraphQL argument standing for it are checked by the same schema.
 */
import { z } from 'zod';
import { MATCH_ID_PATTERN } from '../core/ids.js';

export const MatchIdSchema = z
  .string()
  .regex(MATCH_ID_PATTERN, 'a match id (letters, digits, "_" and "-")')
  .describe('Match id as returned by POST /v1/matches.');

export const HandleSchema = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'letters, digits, "_", "." and "-", starting with a letter or digit')
  .describe(
    'A player handle. Anonymous play picks it as a label (any handle no registered player owns); a registered ' +
      "player's handle is its own (seats show verified). Match history is listed by handle.",
  );

/** An action's idempotency key (REST's Idempotency-Key header, GraphQL's idempotencyKey argument). */
export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\x21-\x7e]+$/, 'visible ASCII');

/** Largest event seq the store can hold (a PostgreSQL integer): bounds every `after`. */
export const MAX_SEQ = 2_147_483_647;

/** Seek ids as the service issues them (sk_ and 16 base64url characters; up to 40 accepted). */
export const SeekIdSchema = z.string().regex(/^sk_[A-Za-z0-9_-]{1,40}$/, 'a seek id');

/** Challenge ids as the service issues them (ch_ and 16 base64url characters; up to 40 accepted). */
export const ChallengeIdSchema = z.string().regex(/^ch_[A-Za-z0-9_-]{1,40}$/, 'a challenge id');

/** Tournament ids as the service issues them (tn_ and 16 base64url characters; up to 40 accepted). */
export const TournamentIdSchema = z.string().regex(/^tn_[A-Za-z0-9_-]{1,40}$/, 'a tournament id');

/** Bulk pairing ids as the service issues them (bp_ and 16 base64url characters; up to 40 accepted). */
export const BulkPairingIdSchema = z.string().regex(/^bp_[A-Za-z0-9_-]{1,40}$/, 'a bulk pairing id');

/** Seat webhook and account webhook ids as the service issues them (wh_ and 16 base64url characters; up to 40 accepted). */
export const WebhookIdSchema = z.string().regex(/^wh_[A-Za-z0-9_-]{1,40}$/, 'a webhook id');

/** Webhook delivery ids as the database issues them (msg_ and a UUID's 32 hex digits). */
export const DeliveryIdSchema = z.string().regex(/^msg_[a-f0-9]{32}$/, 'a delivery id');

/** A player's API token ids as the service issues them (tok_ and 16 base64url characters; up to 40 accepted). */
export const TokenIdSchema = z.string().regex(/^tok_[A-Za-z0-9_-]{1,40}$/, 'a token id');

/** What a page cursor may be (each list's cursor is opaque base64url text of its own). */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;
