/**
 * Challenges: a registered player invites another by handle, or anyone (or only the handles it
 * names), to a match. The challenge row's status decides every race: accept, decline, cancel and
 * expiry are conditional updates from 'open' in the store, so each challenge has one outcome
 * whatever the number of nodes. An accept creates the match through the lobby's create path, and
 * the store writes the challenge's acceptance in the match's own transaction: an accepted
 * challenge always names its match, and a challenge accepted twice (or accepted after a cancel)
 * stores no second match.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { Seat } from '../../core/ruleset.js';
import type { TimeControl } from '../../core/clock.js';
import { GAME_IDS } from '../../games/registry.js';
import {
  ChallengeClosedError,
  RequestKeyTakenError,
  type MatchStatus,
  type ChallengeRow,
  type ChallengeSeat,
  type ChallengeStatus,
  type PlayerRow,
} from '../../persistence/types.js';
import { ServiceError, problems } from '../errors.js';
import { canonicalJson, sha256Hex } from '../../core/hash.js';
import { hashToken, newSeatToken } from '../accounts/tokens.js';
import { gameRuleset } from '../match/games.js';
import { createMatch, resolveDeck, type LobbyDeps } from './lobby.js';
import { ratingFamily } from '../accounts/ratings.js';
import type { DeckSpec } from '../match/types.js';
import { ChallengeIdSchema } from '../../contract/ids.js';
import { aiLevelOf } from '../ai/players.js';

/** lichess's decline reasons: the challenger's client words them. */
export const DECLINE_REASONS = [
  'generic',
  'later',
  'tooFast',
  'tooSlow',
  'timeControl',
  'rated',
  'casual',
  'standard',
  'variant',
  'noBot',
  'onlyBot',
] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

export interface ChallengeSettings {
  /** Challenges one player may create per rolling hour. */
  perHour: number;
  /** Open challenges addressed to one player at once (CHALLENGE_MAX_PENDING_PER_RECIPIENT); one more is 429 too-many-challenges. */
  maxPendingPerRecipient: number;
  /** How long a challenge stays open, by time-control family ('live' also covers no clock). */
  expiryMs: { live: number; correspondence: number };
}

export const DEFAULT_CHALLENGE_SETTINGS: ChallengeSettings = {
  perHour: 30,
  maxPendingPerRecipient: 50,
  expiryMs: { live: 60 * 60_000, correspondence: 7 * 86_400_000 },
};

export interface CreateChallengeInput {
  /** The challenged player's handle; without it the challenge is open. */
  to?: string | undefined;
  /** An open challenge only these handles may accept (empty or absent: anyone). */
  allowed?: string[] | undefined;
  game?: string | undefined;
  timeControl?: TimeControl | undefined;
  rated?: boolean | undefined;
  seat?: ChallengeSeat | undefined;
  settings?: Record<string, unknown> | undefined;
  /** The challenger's deck (default: the game's first starter deck); never shown to anyone. */
  deck?: DeckSpec | undefined;
}

/** What anyone may see of a challenge: no deck, no token. */
export interface ChallengeView {
  id: string;
  status: ChallengeStatus;
  challenger: { handle: string; bot: boolean };
  to: { handle: string; bot: boolean } | null;
  allowed: string[];
  game: string;
  timeControl: TimeControl;
  rated: boolean;
  seat: ChallengeSeat;
  settings: Record<string, unknown>;
  declineReason: DeclineReason | null;
  matchId: string | null;
  createdAt: string;
  expiresAt: string;
  closedAt: string | null;
}

export interface AcceptResult {
  challenge: ChallengeView;
  match: { id: string; seat: Seat; token: string; version: number; status: MatchStatus };
  /** The stored answer of an earlier accept with the same idempotency key (with a new seat token). */
  replayed?: boolean;
}

/** What an accept with an idempotency key stores: its answer without the token. */
interface StoredAccept {
  challenge: ChallengeView;
  match: { id: string; seat: Seat; version: number; status: MatchStatus };
}

export function challengeView(c: ChallengeRow): ChallengeView {
  return {
    id: c.id,
    status: c.status,
    challenger: { handle: c.challenger.handle, bot: c.challenger.bot },
    to: c.dest ? { handle: c.dest.handle, bot: c.dest.bot } : null,
    allowed: c.allowed,
    game: c.game,
    timeControl: c.timeControl as TimeControl,
    rated: c.rated,
    seat: c.seat,
    settings: (c.settings ?? {}) as Record<string, unknown>,
    declineReason: (c.declineReason as DeclineReason | null) ?? null,
    matchId: c.matchId,
    createdAt: c.createdAt.toISOString(),
    expiresAt: c.expiresAt.toISOString(),
    closedAt: c.closedAt?.toISOString() ?? null,
  };
}

const NO_CLOCK: TimeControl = { kind: 'none' };

export class Challenges {
  constructor(
    private readonly deps: LobbyDeps,
    private readonly settings: ChallengeSettings,
  ) {}

  private get store() {
    return this.deps.store.challenges;
  }

  async create(me: PlayerRow, input: CreateChallengeInput): Promise<ChallengeView> {
    const ruleset = gameRuleset(input.game ?? GAME_IDS[0]!);
    const control = input.timeControl ?? NO_CLOCK;
    const rated = input.rated ?? false;
    let destId: string | null = null;
    if (input.to !== undefined) {
      if (input.allowed && input.allowed.length > 0) throw problems.validation('allowed is for open challenges (without to).');
      if (input.to.toLowerCase() === me.handle.toLowerCase()) throw problems.validation('to: you cannot challenge yourself.');
      const dest = await this.deps.store.players.byHandle(input.to);
      if (!dest) throw problems.playerNotFound(input.to);
      destId = dest.id;
    }
    if (rated && ratingFamily(control.kind) === null) {
      throw problems.ratedMatchInvalid(
        'a rated match needs a time control (correspondence or live): without a clock a losing seat could stall forever.',
      );
    }
    // Checked now, so a challenge that could never start is refused when it is made.
    const parsed = ruleset.configSchema.safeParse(input.settings ?? {});
    if (!parsed.success) throw problems.invalidSettings(parsed.error.issues.map((i) => `settings.${i.path.join('.')}: ${i.message}`));
    if (input.deck) resolveDeck(ruleset, input.deck, parsed.data, 'deck');
    const at = this.deps.now();
    const ttl = control.kind === 'correspondence' ? this.settings.expiryMs.correspondence : this.settings.expiryMs.live;
    const row = await this.store.create(
      {
        id: `ch_${randomBytes(12).toString('base64url')}`,
        challengerId: me.id,
        destId,
        allowed: [...new Set((input.allowed ?? []).map((h) => h.toLowerCase()))],
        game: ruleset.id,
        timeControl: control,
        rated,
        seat: input.seat ?? 'random',
        settings: input.settings ?? {},
        deck: input.deck ?? null,
        createdAt: new Date(at),
        expiresAt: new Date(at + ttl),
      },
      this.settings.perHour,
      this.settings.maxPendingPerRecipient,
    );
    if (row === 'per-hour') throw problems.tooManyChallenges(this.settings.perHour);
    if (row === 'recipient-full') throw problems.recipientChallengesFull(input.to ?? '', this.settings.maxPendingPerRecipient);
    // The computer accepts at once (lichess's challenge to the AI starts the game): with the
    // game's first starter deck, through the same accept as anyone's.
    if (destId !== null && aiLevelOf(destId) !== null) {
      const computer = await this.deps.store.players.byHandle(destId);
      if (computer) return (await this.accept(computer, row.id, { deck: { starter: ruleset.starterDecks[0]!.id } })).challenge;
    }
    return challengeView(row);
  }

  /** The challenge as stored now (an open one past its expiry is expired first: written once). */
  private async current(id: string): Promise<ChallengeRow> {
    // Not an id this service issues (GraphQL takes any ID; a NUL byte would reach the database): not found.
    const row = ChallengeIdSchema.safeParse(id).success ? await this.store.get(id) : null;
    if (!row) throw problems.challengeNotFound(id);
    const at = this.deps.now();
    if (row.status === 'open' && row.expiresAt.getTime() <= at) {
      await this.store.expire(new Date(at), { id });
      return (await this.store.get(id)) ?? row;
    }
    return row;
  }

  async get(id: string): Promise<ChallengeView> {
    return challengeView(await this.current(id));
  }

  async list(
    me: PlayerRow,
    direction: 'in' | 'out',
    opts: { status?: ChallengeStatus | undefined; limit?: number | undefined; cursor?: string | undefined },
  ): Promise<{ challenges: ChallengeView[]; nextCursor: string | null }> {
    // Lazy expiry: a list never shows as open a challenge past its time (this player's, all of them).
    await this.store.expire(new Date(this.deps.now()), { player: me.id });
    try {
      const page = await this.store.list(me.id, direction, {
        ...(opts.status ? { status: opts.status } : {}),
        limit: opts.limit ?? 20,
        ...(opts.cursor !== undefined ? { cursor: opts.cursor } : {}),
      });
      return { challenges: page.rows.map(challengeView), nextCursor: page.nextCursor };
    } catch (e) {
      if (e instanceof Error && e.name === 'InvalidCursorError') throw problems.invalidCursor();
      throw e;
    }
  }

  /**
   * With an idempotency key (the player's, per operation): a retry of the same request (same
   * challenge, same deck) gets the stored answer, with `replayed`; the key with another request
   * is idempotency-key-reused. The key is stored in the acceptance's transaction, so of two
   * requests with one key on any nodes, one accepts and the other answers from its row. Seat
   * tokens are stored hashed, so the replay cannot send the lost token again: it replaces the
   * seat's token with a new one (the old one stops working) and answers that.
   */
  async accept(
    me: PlayerRow,
    id: string,
    input: { deck?: DeckSpec | undefined },
    opts: { idempotencyKey?: string | undefined } = {},
  ): Promise<AcceptResult> {
    const key = opts.idempotencyKey;
    const hash = key === undefined ? '' : sha256Hex(canonicalJson({ challenge: id, deck: input.deck ?? null }));
    if (key !== undefined) {
      const prior = await this.replayAccept(me, id, key, hash);
      if (prior) return prior;
    }
    try {
      return await this.acceptOnce(me, id, input, key === undefined ? undefined : { key, hash });
    } catch (e) {
      // Another request with this key accepted first (or is the reason this challenge is closed).
      if (key === undefined || !(e instanceof RequestKeyTakenError || (e instanceof ServiceError && e.code === 'challenge-closed')))
        throw e;
      const prior = await this.replayAccept(me, id, key, hash);
      if (prior) return prior;
      throw e;
    }
  }

  private async replayAccept(me: PlayerRow, id: string, key: string, hash: string): Promise<AcceptResult | null> {
    const prior = await this.deps.store.findRequestKey(me.id, 'challenge-accept', key);
    if (!prior) return null;
    if (prior.requestHash !== hash) throw problems.idempotencyMismatch();
    const a = JSON.parse(prior.response) as StoredAccept;
    const token = await this.newSeatToken(a.match.id, a.match.seat);
    return { challenge: a.challenge, match: { ...a.match, token }, replayed: true };
  }

  /** Replaces the seat's token (whatever it is now) with a new one, which it returns. */
  private async newSeatToken(matchId: string, seat: Seat): Promise<string> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const held = (await this.deps.store.getMatch(matchId))?.seats.find((s) => s.seat === seat)?.tokenHash;
      if (!held) break;
      const fresh = newSeatToken();
      // Of two replacements at once, the database lets one replace a given hash: the other reads again.
      if (await this.deps.store.replaceSeatToken(matchId, seat, held, hashToken(fresh))) {
        this.deps.credentials.remember(hashToken(fresh));
        await this.deps.store.announceRevoked(held).catch(() => undefined);
        return fresh;
      }
    }
    throw new Error(`seat ${seat} of match ${matchId} has no token to replace`);
  }

  private async acceptOnce(
    me: PlayerRow,
    id: string,
    input: { deck?: DeckSpec | undefined },
    keyed: { key: string; hash: string } | undefined,
  ): Promise<AcceptResult> {
    const c = await this.current(id);
    if (c.status !== 'open') throw problems.challengeClosed(c.status);
    if (c.challenger.id === me.id) throw problems.notYourChallenge('You cannot accept your own challenge; cancel it instead.');
    if (c.dest ? c.dest.id !== me.id : c.allowed.length > 0 && !c.allowed.includes(me.handle.toLowerCase())) {
      throw problems.notYourChallenge('This challenge is for another player.');
    }
    const ruleset = gameRuleset(c.game);
    // The challenger's seat: asked for, or drawn now from the service's random source (the draw
    // is recorded in the match's seats).
    const challengerSeat: Seat = c.seat === 'random' ? (randomInt(2) === 0 ? 'p1' : 'p2') : c.seat;
    const otherSeat: Seat = challengerSeat === 'p1' ? 'p2' : 'p1';
    const challengerDeck = (c.deck as DeckSpec | null) ?? { starter: ruleset.starterDecks[0]!.id };
    if (!input.deck) throw problems.validation('deck is required to accept a challenge.');
    const challengerRow = await this.deps.store.players.byHandle(c.challenger.handle);
    if (!challengerRow) throw problems.playerNotFound(c.challenger.handle);
    // The challenger's token was checked for match:create when the challenge was made; the match is created on its behalf.
    const challenger = { kind: 'player' as const, player: challengerRow, scopes: ['match:create' as const] };
    const at = new Date(this.deps.now());
    // The answer as it will be once accepted (the challenge is closed for good then): stored with the key.
    const acceptedView = challengeView({ ...c, status: 'accepted', acceptedById: me.id, closedAt: at });
    let created;
    try {
      created = await createMatch(
        this.deps,
        {
          game: c.game,
          seat: challengerSeat,
          decks: { [challengerSeat]: challengerDeck, [otherSeat]: input.deck },
          settings: c.settings as Record<string, unknown>,
          timeControl: c.timeControl as TimeControl,
          rated: c.rated,
        },
        challenger,
        {
          opponent: { playerId: me.id, handle: me.handle },
          accept: { challengeId: c.id, acceptedById: me.id, at },
          // The computer accepting: the challenger's fair share of its workers.
          ...(aiLevelOf(me.id) !== null ? { aiOwner: `player:${challengerRow.id}` } : {}),
          ...(keyed
            ? {
                requestKey: (m: { id: string; status: MatchStatus; version: number }) => ({
                  playerId: me.id,
                  operation: 'challenge-accept' as const,
                  key: keyed.key,
                  requestHash: keyed.hash,
                  response: JSON.stringify({
                    challenge: { ...acceptedView, matchId: m.id },
                    match: { id: m.id, seat: otherSeat, version: m.version, status: m.status },
                  } satisfies StoredAccept),
                }),
              }
            : {}),
        },
      );
    } catch (e) {
      if (!(e instanceof ChallengeClosedError)) throw e;
      // Lost the race (a cancel, a decline, another accept or the expiry came first): nothing stored.
      const now = await this.current(id);
      throw problems.challengeClosed(now.status === 'open' ? 'expired' : now.status);
    }
    const after = await this.current(id);
    return {
      challenge: challengeView(after),
      match: { id: created.id, seat: otherSeat, token: created.tokens[otherSeat]!, version: created.version, status: created.status },
    };
  }

  async decline(me: PlayerRow, id: string, reason: DeclineReason = 'generic'): Promise<ChallengeView> {
    const c = await this.current(id);
    if (c.status !== 'open') throw problems.challengeClosed(c.status);
    if (!c.dest || c.dest.id !== me.id)
      throw problems.notYourChallenge(
        'Only the challenged player declines a challenge (an open challenge is left to expire or cancelled by its challenger).',
      );
    return this.closed(id, await this.store.close(id, 'declined', new Date(this.deps.now()), { reason }));
  }

  async cancel(me: PlayerRow, id: string): Promise<ChallengeView> {
    const c = await this.current(id);
    if (c.status !== 'open') throw problems.challengeClosed(c.status);
    if (c.challenger.id !== me.id) throw problems.notYourChallenge('Only the challenger cancels a challenge.');
    return this.closed(id, await this.store.close(id, 'canceled', new Date(this.deps.now()), { challengerId: me.id }));
  }

  private async closed(id: string, row: ChallengeRow | null): Promise<ChallengeView> {
    if (row) return challengeView(row);
    // The conditional update matched nothing: another outcome was written first.
    const now = await this.current(id);
    throw problems.challengeClosed(now.status === 'open' ? 'expired' : now.status);
  }

  /** Expires open challenges past their time (the sweeper calls it on every node; each is written once). */
  async sweep(limit = 100): Promise<number> {
    return (await this.store.expire(new Date(this.deps.now()), { limit })).length;
  }
}
