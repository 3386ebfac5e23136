/** Registered players and their API tokens (only token hashes are stored). */
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { isUniqueViolation } from './db-errors.js';

/** pairing:play: a delegated token, bound to the one bulk pairing it is given for, that acts in that pairing's matches only. */
export type Scope = 'match:read' | 'match:play' | 'match:create' | 'webhook:write' | 'token:write' | 'pairing:play';

export interface PlayerRow {
  id: string;
  handle: string;
  bot: boolean;
  createdAt: Date;
}

export interface PlayerTokenRow {
  id: string;
  playerId: string;
  label: string | null;
  scopes: Scope[];
  createdAt: Date;
  revokedAt: Date | null;
  /** A pairing:play token's bulk pairing, once one was created with it (null before, and for other tokens). */
  bulkPairingId: string | null;
}

/** Registered players and their API tokens. */
export interface PlayerStore {
  /** Registers the player with its first token; null when the handle (case-insensitively) is taken. */
  register(
    p: { id: string; handle: string; bot: boolean },
    token: { id: string; tokenHash: string; label: string | null; scopes: Scope[] },
  ): Promise<PlayerRow | null>;
  byHandle(handle: string): Promise<PlayerRow | null>;
  /** The player and scopes of a live (not revoked) token. */
  byToken(tokenHash: string): Promise<{ player: PlayerRow; token: PlayerTokenRow } | null>;
  /** Which of these handles are registered (case-insensitively), as given. */
  registered(handles: string[]): Promise<string[]>;
  tokens(playerId: string): Promise<PlayerTokenRow[]>;
  addToken(playerId: string, token: { id: string; tokenHash: string; label: string | null; scopes: Scope[] }): Promise<PlayerTokenRow>;
  /** Revokes a live token of the player; its sha256, or null when there was no such live token. */
  revokeToken(playerId: string, tokenId: string): Promise<string | null>;
  /** The matches a bulk pairing created (none while it is scheduled). */
  pairingMatches(bulkPairingId: string): Promise<string[]>;
}

type PlayerModel = Prisma.PlayerGetPayload<object>;
type TokenModel = Prisma.PlayerTokenGetPayload<object>;

const playerRow = (p: PlayerModel): PlayerRow => ({ id: p.id, handle: p.handle, bot: p.bot, createdAt: p.createdAt });
const tokenRow = (t: TokenModel): PlayerTokenRow => ({
  id: t.id,
  playerId: t.playerId,
  label: t.label,
  scopes: t.scopes as Scope[],
  createdAt: t.createdAt,
  revokedAt: t.revokedAt,
  bulkPairingId: t.bulkPairingId,
});

export class PgPlayerStore implements PlayerStore {
  constructor(private readonly prisma: PrismaClient) {}

  async register(
    p: { id: string; handle: string; bot: boolean },
    token: { id: string; tokenHash: string; label: string | null; scopes: Scope[] },
  ): Promise<PlayerRow | null> {
    try {
      const created = await this.prisma.player.create({
        data: { ...p, handleKey: p.handle.toLowerCase(), tokens: { create: token } },
      });
      return playerRow(created);
    } catch (e) {
      // The handle's unique key decides a race between two registrations.
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }

  async byHandle(handle: string): Promise<PlayerRow | null> {
    const p = await this.prisma.player.findUnique({ where: { handleKey: handle.toLowerCase() } });
    return p ? playerRow(p) : null;
  }

  async byToken(tokenHash: string): Promise<{ player: PlayerRow; token: PlayerTokenRow } | null> {
    const t = await this.prisma.playerToken.findUnique({ where: { tokenHash }, include: { player: true } });
    if (!t || t.revokedAt) return null;
    const { player, ...token } = t;
    return { player: playerRow(player), token: tokenRow(token) };
  }

  async registered(handles: string[]): Promise<string[]> {
    if (handles.length === 0) return [];
    const keys = handles.map((h) => h.toLowerCase());
    const found = new Set(
      (await this.prisma.player.findMany({ where: { handleKey: { in: keys } }, select: { handleKey: true } })).map((p) => p.handleKey),
    );
    return handles.filter((h) => found.has(h.toLowerCase()));
  }

  async tokens(playerId: string): Promise<PlayerTokenRow[]> {
    return (await this.prisma.playerToken.findMany({ where: { playerId }, orderBy: { createdAt: 'asc' } })).map(tokenRow);
  }

  async addToken(
    playerId: string,
    token: { id: string; tokenHash: string; label: string | null; scopes: Scope[] },
  ): Promise<PlayerTokenRow> {
    return tokenRow(await this.prisma.playerToken.create({ data: { ...token, playerId } }));
  }

  async revokeToken(playerId: string, tokenId: string): Promise<string | null> {
    const live = { id: tokenId, playerId, revokedAt: null };
    const t = await this.prisma.playerToken.findFirst({ where: live, select: { tokenHash: true } });
    if (!t) return null;
    // The conditional update decides a race between two revocations: one of them revokes.
    return (await this.prisma.playerToken.updateMany({ where: live, data: { revokedAt: new Date() } })).count > 0 ? t.tokenHash : null;
  }

  async pairingMatches(bulkPairingId: string): Promise<string[]> {
    const boards = await this.prisma.bulkPairingBoard.findMany({
      where: { bulkId: bulkPairingId, matchId: { not: null } },
      select: { matchId: true },
    });
    return boards.map((b) => b.matchId!);
  }
}
