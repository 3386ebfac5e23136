/**
 * Fast set-up for the isolation suite. Players by the thousand are inserted with SQL in the
 * shape the service writes them (src/service/accounts/players.ts: `pl_…` ids, lower-cased handle key, a
 * token stored as the sha256 of `evp_…`), so the server reads them as its own; tournament
 * entries copy the deck, deck name and rating the service wrote for a real entrant. Everything a
 * player plays (matches, moves, webhooks) goes through the API, and so does everything on PGlite
 * (its database is inside the server process).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sha256Hex } from '../../src/core/hash.js';
import { type Client, pool } from './client.js';

export const STARTERS = ['starter-verdant-quake', 'starter-ember-tide'] as const;
export const DECKS = { p1: { starter: STARTERS[0] }, p2: { starter: STARTERS[1] } };
export const CORR = { kind: 'correspondence', daysPerMove: 3 };
const ALL_SCOPES = ['match:read', 'match:play', 'match:create', 'webhook:write', 'token:write'];

export interface Player {
  id: string;
  handle: string;
  token: string;
}

const rid = () => randomBytes(12).toString('base64url');

/**
 * `n` players named `<prefix><i>`, each with one token of `scopes`: on PostgreSQL (`db`) one
 * statement each for the players and their tokens; without it (PGlite, inside the server) over
 * the API, every scope.
 */
export async function insertPlayers(
  db: pg.Client | null,
  api: Client,
  prefix: string,
  n: number,
  scopes: string[] = ALL_SCOPES,
): Promise<Player[]> {
  if (!db) {
    return pool(
      Array.from({ length: n }, (_, i) => i),
      8,
      async (i) => {
        const r = await api.must<{ token: string; player: { id?: string } }>('POST', '/v1/players', 201, {
          body: { handle: `${prefix}${i}` },
        });
        return { id: r.player.id ?? '', handle: `${prefix}${i}`, token: r.token };
      },
    );
  }
  const players: Player[] = Array.from({ length: n }, (_, i) => ({
    id: `pl_${rid()}`,
    handle: `${prefix}${i}`,
    token: `evp_${randomBytes(32).toString('base64url')}`,
  }));
  await db.query(
    `INSERT INTO "player" ("id", "handle", "handle_key", "bot", "created_at")
     SELECT id, handle, lower(handle), false, now() FROM unnest($1::text[], $2::text[]) AS t(id, handle)`,
    [players.map((p) => p.id), players.map((p) => p.handle)],
  );
  await insertTokens(
    db,
    api,
    players,
    scopes,
    players.map((p) => p.token),
  );
  return players;
}

/** One more token of `scopes` for each player (plain tokens returned in the same order); without `db`, minted over the API. */
export async function insertTokens(
  db: pg.Client | null,
  api: Client,
  players: Player[],
  scopes: string[],
  tokens?: string[],
): Promise<string[]> {
  if (!db)
    return pool(
      players,
      8,
      async (p) => (await api.must<{ token: string }>('POST', '/v1/me/tokens', 201, { token: p.token, body: { scopes } })).token,
    );
  const plain = tokens ?? players.map(() => `evp_${randomBytes(32).toString('base64url')}`);
  await db.query(
    `INSERT INTO "player_token" ("id", "player_id", "token_hash", "label", "scopes", "created_at")
     SELECT id, player_id, token_hash, null, $4::text[], now() FROM unnest($1::text[], $2::text[], $3::text[]) AS t(id, player_id, token_hash)`,
    [players.map(() => `tok_${rid()}`), players.map((p) => p.id), plain.map((t) => sha256Hex(t)), scopes],
  );
  return plain;
}

/**
 * A Swiss of `size` players, started (round 1 paired: size / 2 matches). Two entrants join over
 * the API; the rest are inserted as entries like theirs.
 */
export async function bigSwiss(api: Client, db: pg.Client | null, size: number): Promise<{ id: string; organizer: string }> {
  const org = await api.must<{ token: string }>('POST', '/v1/players', 201, { body: { handle: `swiss-org-${rid().slice(0, 6)}` } });
  const t = await api.must<{ id: string }>('POST', '/v1/tournaments', 201, {
    token: org.token,
    body: { name: `Open of ${size}`, format: 'swiss', rounds: 9, timeControl: CORR, maxPlayers: size },
  });
  for (let i = 0; i < 2; i++) {
    const p = await api.must<{ token: string }>('POST', '/v1/players', 201, { body: { handle: `swiss-real-${i}-${rid().slice(0, 6)}` } });
    await api.must('POST', `/v1/tournaments/${t.id}/join`, 200, { token: p.token, body: {} });
  }
  const rest = await insertPlayers(db, api, `sw${rid().slice(0, 4)}-`, size - 2);
  if (!db) await pool(rest, 8, (p) => api.must('POST', `/v1/tournaments/${t.id}/join`, 200, { token: p.token, body: {} }));
  else
    await db.query(
      `INSERT INTO "tournament_player" ("tournament_id", "player_id", "deck", "deck_name", "rating", "joined_at")
     SELECT $1, p, e."deck", e."deck_name", e."rating", now()
       FROM unnest($2::text[]) AS p, (SELECT "deck", "deck_name", "rating" FROM "tournament_player" WHERE "tournament_id" = $1 LIMIT 1) AS e`,
      [t.id, rest.map((p) => p.id)],
    );
  await api.must('POST', `/v1/tournaments/${t.id}/start`, 200, { token: org.token, body: {} });
  return { id: t.id, organizer: org.token };
}

export interface Hot {
  id: string;
  tokens: { p1: string; p2: string };
}

/** A hot-seat match (both seat tokens). */
export async function hotSeat(api: Client, handle = 'by', extra: Record<string, unknown> = {}): Promise<Hot> {
  return api.must<Hot>('POST', '/v1/matches', 201, { body: { handle, opponentHandle: `${handle}-opp`, decks: DECKS, ...extra } });
}

type View = { version: number; status: string; game: { pending: { seat: 'p1' | 'p2' } | null } };

/**
 * One legal move by the seat to move (never a resignation while another action exists);
 * null when the match is over. `pick` chooses among the non-resigning actions.
 */
export async function oneMove(
  api: Client,
  m: Hot,
  pick: (n: number) => number = (n) => Math.floor(Math.random() * n),
): Promise<{ status: number; version: number } | null> {
  const v = (await api.call('GET', `/v1/matches/${m.id}`, { token: m.tokens.p1 })).body as View | null;
  const seat = v?.game?.pending?.seat;
  if (!v || v.status !== 'active' || !seat) return null;
  const legal = (await api.call('GET', `/v1/matches/${m.id}/legal-actions`, { token: m.tokens[seat] })).body as {
    actions?: { action: { type: string } }[];
  } | null;
  const actions = (legal?.actions ?? []).filter((a) => a.action.type !== 'resign');
  if (!actions.length) return null;
  const r = await api.call('POST', `/v1/matches/${m.id}/actions`, {
    token: m.tokens[seat],
    body: { action: actions[pick(actions.length)]!.action },
  });
  return { status: r.status, version: (r.body as { version?: number } | null)?.version ?? v.version };
}

/** A hot-seat match played to its end with first-listed moves (a long log: about a thousand events). */
export async function longMatch(api: Client): Promise<{ id: string; version: number; tokens: Hot['tokens'] }> {
  const m = await hotSeat(api, 'long');
  for (let i = 0; i < 2_000; i++) {
    const r = await oneMove(api, m, () => 0);
    if (!r) break;
  }
  const v = await api.must<View>('GET', `/v1/matches/${m.id}`, 200);
  return { id: m.id, version: v.version, tokens: m.tokens };
}

/** The PostgreSQL database of the run, as a plain client (fixtures and samples). */
export async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}
