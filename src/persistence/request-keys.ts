/**
 * A player's Idempotency-Keys for lobby requests (player_request_key): the key is inserted first
 * in the transaction of the write it answers, so of two requests with one key, on any nodes, the
 * second waits on the first's row (PostgreSQL's unique index) and stores nothing; the service
 * then answers it from the stored row.
 */
import type { SqlTx } from './database.js';
import { RequestKeyTakenError, type PlayerRequestKey } from './shared.js';

/** Inserts the key with its answer; RequestKeyTakenError (the transaction then rolls back) when it exists. */
export async function claimRequestKey(tx: SqlTx, k: PlayerRequestKey): Promise<void> {
  const won = await tx.query(
    `INSERT INTO "player_request_key" ("player_id", "operation", "key", "request_hash", "response")
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING 1`,
    [k.playerId, k.operation, k.key, k.requestHash, k.response],
  );
  if (won.length === 0) throw new RequestKeyTakenError();
}

/** Sets the answer of a key claimed in this transaction. */
export async function answerRequestKey(tx: SqlTx, k: Omit<PlayerRequestKey, 'response' | 'requestHash'>, response: string): Promise<void> {
  await tx.query(`UPDATE "player_request_key" SET "response" = $4 WHERE "player_id" = $1 AND "operation" = $2 AND "key" = $3`, [
    k.playerId,
    k.operation,
    k.key,
    response,
  ]);
}

/** Removes a key claimed in this transaction (the request was refused: it keeps no key). */
export async function dropRequestKey(tx: SqlTx, k: Omit<PlayerRequestKey, 'response' | 'requestHash'>): Promise<void> {
  await tx.query(`DELETE FROM "player_request_key" WHERE "player_id" = $1 AND "operation" = $2 AND "key" = $3`, [
    k.playerId,
    k.operation,
    k.key,
  ]);
}
