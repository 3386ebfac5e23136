/**
 * Registered players: a handle reserved for them (case-insensitively), personal API tokens with
 * scopes (only their hashes are stored), and who a request's credential is: nobody, the holder of
 * a seat token, or a player.
 */
import { randomBytes } from 'node:crypto';
import type { MatchRow, PlayerRow, PlayerStore, PlayerTokenRow, Scope } from '../../persistence/types.js';
import type { Seat } from '../../core/ruleset.js';
import type { KnownCredentials } from './credentials.js';
import { problems } from '../errors.js';
import { isReservedHandle } from './reserved-handles.js';
import { hashToken, isPlayerToken, newPlayerToken, sameHash } from './tokens.js';

export const SCOPES: readonly Scope[] = ['match:read', 'match:play', 'match:create', 'webhook:write', 'token:write'];

/** Who is asking. */
export type Principal =
  | { kind: 'anonymous' }
  /** A seat token: it names one seat of one match. */
  | { kind: 'seat'; token: string }
  | {
      kind: 'player';
      player: PlayerRow;
      scopes: readonly Scope[];
      /** The token's id (absent for a principal the service made itself). */
      tokenId?: string;
      /** A pairing:play token's bulk pairing (null: not bound yet) and that pairing's matches. */
      pairing?: { id: string | null; matchIds: readonly string[] };
    };

export interface PlayerView {
  handle: string;
  bot: boolean;
  createdAt: string;
}

export interface TokenView {
  id: string;
  label: string | null;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
}

export const playerView = (p: PlayerRow): PlayerView => ({ handle: p.handle, bot: p.bot, createdAt: p.createdAt.toISOString() });
const tokenView = (t: PlayerTokenRow): TokenView => ({
  id: t.id,
  label: t.label,
  scopes: t.scopes,
  createdAt: t.createdAt.toISOString(),
  revokedAt: t.revokedAt?.toISOString() ?? null,
});
const newTokenRecord = (label: string | null, scopes: Scope[]) => {
  const token = newPlayerToken();
  return { token, record: { id: `tok_${randomBytes(12).toString('base64url')}`, tokenHash: hashToken(token), label, scopes } };
};

export class Players {
  constructor(
    private readonly store: PlayerStore,
    private readonly credentials: KnownCredentials,
    /** Tells every node a token was revoked (its live streams and subscriptions end at once). */
    private readonly announceRevoked: (tokenHash: string) => Promise<void> = async () => {},
  ) {}

  /** Registers a handle; the answer holds the player's first token (every scope), shown once. */
  async register(input: {
    handle: string;
    bot?: boolean | undefined;
  }): Promise<{ player: PlayerView; token: string; tokenInfo: TokenView }> {
    if (isReservedHandle(input.handle)) throw problems.handleNotAllowed(input.handle);
    const { token, record } = newTokenRecord('registration', [...SCOPES]);
    const p = await this.store.register(
      { id: `pl_${randomBytes(12).toString('base64url')}`, handle: input.handle, bot: input.bot ?? false },
      record,
    );
    if (!p) throw problems.handleTaken(input.handle);
    this.credentials.remember(record.tokenHash);
    return {
      player: playerView(p),
      token,
      tokenInfo: { id: record.id, label: record.label, scopes: record.scopes, createdAt: p.createdAt.toISOString(), revokedAt: null },
    };
  }

  async profile(handle: string): Promise<PlayerView> {
    const p = await this.store.byHandle(handle);
    if (!p) throw problems.playerNotFound(handle);
    return playerView(p);
  }

  /** The principal of a bearer token (undefined: none sent; null: malformed). */
  async principal(token: string | null | undefined): Promise<Principal> {
    if (token === undefined) return { kind: 'anonymous' };
    if (token === null) throw problems.invalidToken();
    if (!isPlayerToken(token)) return { kind: 'seat', token };
    const hash = hashToken(token);
    const found = await this.store.byToken(hash);
    if (!found) throw problems.invalidToken('This player token is unknown or revoked.');
    this.credentials.remember(hash);
    const { token: t } = found;
    if (!t.scopes.includes('pairing:play')) return { kind: 'player', player: found.player, scopes: t.scopes, tokenId: t.id };
    const matchIds = t.bulkPairingId === null ? [] : await this.store.pairingMatches(t.bulkPairingId);
    return { kind: 'player', player: found.player, scopes: t.scopes, tokenId: t.id, pairing: { id: t.bulkPairingId, matchIds } };
  }

  /** The player behind a token that must be a player token with `scope`. */
  async player(token: string | null | undefined, scope: Scope): Promise<PlayerRow> {
    const p = await this.principal(token);
    if (p.kind === 'anonymous') throw problems.missingToken();
    if (p.kind === 'seat') throw problems.playerTokenRequired();
    requireScope(p, scope);
    return p.player;
  }

  /**
   * The player behind a stored token hash (a feed ticket's minting token), with that token's
   * scopes: invalid-token once the token is revoked.
   */
  async playerOfHash(tokenHash: string, scope: Scope): Promise<PlayerRow> {
    const found = await this.store.byToken(tokenHash);
    if (!found) throw problems.invalidToken();
    requireScope({ kind: 'player', player: found.player, scopes: found.token.scopes }, scope);
    return found.player;
  }

  async tokens(token: string | null | undefined): Promise<TokenView[]> {
    const p = await this.player(token, 'match:read');
    return (await this.store.tokens(p.id)).map(tokenView);
  }

  async addToken(
    token: string | null | undefined,
    input: { label?: string | undefined; scopes: Scope[] },
  ): Promise<{ token: string; tokenInfo: TokenView }> {
    const p = await this.player(token, 'token:write');
    const created = newTokenRecord(input.label ?? null, [...new Set(input.scopes)]);
    const row = await this.store.addToken(p.id, created.record);
    this.credentials.remember(created.record.tokenHash);
    return { token: created.token, tokenInfo: tokenView(row) };
  }

  async revokeToken(token: string | null | undefined, id: string): Promise<void> {
    const p = await this.player(token, 'token:write');
    const revoked = await this.store.revokeToken(p.id, id);
    if (revoked === null) throw problems.tokenNotFound(id);
    // Best-effort, as append notifications are: the streams' heartbeat check backs it up.
    await this.announceRevoked(revoked).catch(() => undefined);
  }

  /** Refuses handles that registered players own, for anonymous seats. */
  async assertUnreserved(handles: (string | null | undefined)[]): Promise<void> {
    const taken = await this.store.registered(handles.filter((h): h is string => typeof h === 'string'));
    if (taken[0] !== undefined) throw problems.handleReserved(taken[0]);
  }
}

export function requireScope(p: Principal, scope: Scope): void {
  if (p.kind === 'player' && !p.scopes.includes(scope)) throw problems.insufficientScope(scope);
}

/**
 * requireScope for one match: a pairing:play token reads and acts (match:read, match:play) in the
 * matches of the bulk pairing it is bound to, and nowhere else; any other token as requireScope.
 */
export function requireScopeIn(p: Principal, scope: Scope, matchId: string): void {
  if (p.kind === 'player' && p.pairing && (scope === 'match:read' || scope === 'match:play') && p.pairing.matchIds.includes(matchId))
    return;
  requireScope(p, scope);
}

/** The seat `p` holds in a match; null for a spectator (no credential, or a player without a seat there). */
export function seatOfPrincipal(row: MatchRow, p: Principal): Seat | null {
  if (p.kind === 'anonymous') return null;
  if (p.kind === 'player') return (row.seats.find((s) => s.playerId === p.player.id)?.seat as Seat | undefined) ?? null;
  const h = hashToken(p.token);
  const s = row.seats.find((x) => x.tokenHash !== null && sameHash(x.tokenHash, h));
  if (!s) throw problems.invalidToken();
  return s.seat as Seat;
}
