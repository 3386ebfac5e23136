/**
 * Seeks: a registered player's standing offer to play anyone compatible (same game, time
 * control and rated flag, each within the other's rating range, never themselves). Posting one
 * pairs it with the oldest compatible open seek, if any, in the store's one transaction that
 * also creates their match (src/persistence/seek-store.ts); otherwise it waits, whether its owner
 * is connected or not, until it pairs, is cancelled or expires.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { DEFAULT_RATING } from '../../core/rating.js';
import type { Seat } from '../../core/ruleset.js';
import type { TimeControl } from '../../core/clock.js';
import { GAME_IDS, type GameId } from '../../games/registry.js';
import { RequestKeyTakenError, type MatchStore, type PlayerRow, type SeekPosted, type SeekRow } from '../../persistence/types.js';
import { canonicalJson, sha256Hex } from '../../core/hash.js';
import { SeekIdSchema } from '../../contract/ids.js';
import { problems } from '../errors.js';
import { gameRuleset } from '../match/games.js';
import { dealPairedMatch, parseSettings, resolveDeck, type PairedSeat } from './lobby.js';
import type { Players } from '../accounts/players.js';
import { deckLabel, ratingFamily } from '../accounts/ratings.js';
import type { DeckSpec } from '../match/types.js';

export interface SeekInput {
  game?: string | undefined;
  timeControl: TimeControl;
  rated?: boolean | undefined;
  minRating?: number | undefined;
  maxRating?: number | undefined;
  deck: DeckSpec;
}

export type SeekStatus = 'open' | 'paired' | 'cancelled' | 'expired';

/** What anyone may see of an open seek: never its deck. */
export interface PublicSeekView {
  id: string;
  handle: string;
  bot: boolean;
  game: string;
  timeControl: TimeControl;
  rated: boolean;
  minRating: number | null;
  maxRating: number | null;
  createdAt: string;
  expiresAt: string;
}

/** What its owner sees: also its status, the match it paired into, and the deck's label. */
export interface OwnSeekView extends PublicSeekView {
  status: SeekStatus;
  matchId: string | null;
  deck: string;
}

export interface SeekLimits {
  /** Open seeks one player may have at once; one more is too-many-seeks. */
  maxOpen: number;
  /** How long a seek stays open unpaired. */
  ttlMs: number;
  /**
   * A live seek's lease: it stays open this long past the last renewal by its owner's connected
   * account feed (renewed every third of it), so it dies with the feed, even with a node killed.
   */
  liveLeaseMs: number;
}

/** SEEK_MAX_OPEN and SEEK_TTL_HOURS default to these. */
export const DEFAULT_SEEK_LIMITS: SeekLimits = { maxOpen: 5, ttlMs: 7 * 24 * 3_600_000, liveLeaseMs: 45_000 };

const LIST_LIMIT = 100;

/** A seek list position: the last seek's creation time and id, opaque to clients (base64url JSON). */
function encodeSeekCursor(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), id])).toString('base64url');
}

function decodeSeekCursor(cursor: string): { createdAt: Date; id: string } {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw problems.invalidCursor();
  }
  if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || typeof v[1] !== 'string' || !SeekIdSchema.safeParse(v[1]).success)
    throw problems.invalidCursor();
  const at = new Date(v[0]);
  if (Number.isNaN(at.getTime()) || at.toISOString() !== v[0] || at.getUTCFullYear() < 2000 || at.getUTCFullYear() > 9999)
    throw problems.invalidCursor();
  return { createdAt: at, id: v[1] };
}

/** Equal keys pair: the time control's fields in a fixed order. */
const controlKey = (c: TimeControl): string =>
  JSON.stringify(
    c.kind === 'correspondence' ? [c.kind, c.daysPerMove] : c.kind === 'live' ? [c.kind, c.initialSeconds, c.incrementSeconds] : [c.kind],
  );

const publicView = (s: SeekRow): PublicSeekView => ({
  id: s.id,
  handle: s.handle,
  bot: s.bot,
  game: s.game,
  timeControl: s.timeControl as TimeControl,
  rated: s.rated,
  minRating: s.minRating,
  maxRating: s.maxRating,
  createdAt: s.createdAt.toISOString(),
  expiresAt: s.expiresAt.toISOString(),
});

const ownView = (s: SeekRow, now: number): OwnSeekView => ({
  ...publicView(s),
  status: s.status === 'open' && s.expiresAt.getTime() <= now ? 'expired' : s.status,
  matchId: s.matchId,
  deck: s.deckName,
});

export class Seeks {
  constructor(
    private readonly store: MatchStore,
    private readonly players: Players,
    private readonly now: () => number,
    readonly limits: SeekLimits = DEFAULT_SEEK_LIMITS,
    /** Whether this player has an account feed open on this node (a live seek needs one). */
    private readonly feedOpen: (playerId: string) => boolean = () => false,
  ) {}

  /**
   * Posts a seek; the answer says whether it paired at once (status paired, with the match id).
   * With an idempotency key (the player's, per operation): a retry with the same body gets the
   * stored answer (`replayed`), the key with another body is idempotency-key-reused; the key is
   * stored in the post's transaction, so of two posts with one key on any nodes one is stored.
   */
  async post(
    token: string | null | undefined,
    input: SeekInput,
    opts: { idempotencyKey?: string | undefined } = {},
  ): Promise<OwnSeekView & { replayed?: true }> {
    const player = await this.players.player(token, 'match:create');
    const key = opts.idempotencyKey;
    if (key === undefined) return this.postOnce(player, input, undefined);
    const hash = sha256Hex(canonicalJson({ seek: input }));
    const replay = async () => {
      const prior = await this.store.findRequestKey(player.id, 'seek-post', key);
      if (!prior) return null;
      if (prior.requestHash !== hash) throw problems.idempotencyMismatch();
      return { ...(JSON.parse(prior.response) as OwnSeekView), replayed: true as const };
    };
    const prior = await replay();
    if (prior) return prior;
    try {
      return await this.postOnce(player, input, { key, hash });
    } catch (e) {
      if (!(e instanceof RequestKeyTakenError)) throw e;
      const stored = await replay();
      if (!stored) throw e;
      return stored;
    }
  }

  private async postOnce(player: PlayerRow, input: SeekInput, keyed: { key: string; hash: string } | undefined): Promise<OwnSeekView> {
    const ruleset = gameRuleset(input.game ?? GAME_IDS[0]!);
    const game = ruleset.id as GameId;
    const control = input.timeControl;
    const family = control.kind === 'none' ? null : ratingFamily(control.kind);
    if (!family) throw problems.seekNeedsCorrespondence();
    // A live seek pairs players who are there now: it lives while its owner's feed is connected.
    const live = control.kind === 'live';
    if (live && !this.feedOpen(player.id)) throw problems.seekNeedsFeed();
    const { minRating, maxRating } = input;
    if (minRating !== undefined && maxRating !== undefined && minRating > maxRating) {
      throw problems.validation(`minRating (${minRating}) is above maxRating (${maxRating}).`);
    }
    const deck = resolveDeck(ruleset, input.deck, parseSettings(ruleset, {}), 'deck');
    const now = this.now();
    const rated = input.rated ?? false;
    const posted = await this.store.seeks.post(
      {
        id: `sk_${randomBytes(12).toString('base64url')}`,
        playerId: player.id,
        game,
        timeControl: control,
        controlKey: controlKey(control),
        family,
        rated,
        minRating: minRating ?? null,
        maxRating: maxRating ?? null,
        deck,
        deckName: deckLabel(input.deck, deck),
        createdAt: new Date(now),
        expiresAt: new Date(now + (live ? this.limits.liveLeaseMs : this.limits.ttlMs)),
      },
      {
        maxOpen: this.limits.maxOpen,
        initialRating: DEFAULT_RATING.rating,
        pair: (older, newer) => {
          // Seats by a fair coin (crypto), so posting second is neither an edge nor a handicap.
          const olderSeat: Seat = randomInt(2) === 0 ? 'p1' : 'p2';
          const seat = (s: SeekRow): PairedSeat => ({ playerId: s.playerId, handle: s.handle, deck: s.deck, deckName: s.deckName });
          const seats = olderSeat === 'p1' ? { p1: seat(older), p2: seat(newer) } : { p1: seat(newer), p2: seat(older) };
          return dealPairedMatch({ game, control, rated, seats, now });
        },
        ...(keyed
          ? {
              requestKey: {
                key: { playerId: player.id, operation: 'seek-post' as const, key: keyed.key, requestHash: keyed.hash },
                answer: (p: SeekPosted) => JSON.stringify(p.kind === 'limit' ? null : ownView(p.seek, now)),
              },
            }
          : {}),
      },
    );
    if (posted.kind === 'limit') throw problems.tooManySeeks(this.limits.maxOpen);
    return ownView(posted.seek, now);
  }

  /** Open seeks, oldest first (the order they pair in). Public: no token needed. */
  async list(filter: { game?: string | undefined }): Promise<PublicSeekView[]> {
    return (await this.page(filter, {})).seeks;
  }

  /**
   * A page of the open seeks, oldest first: at most `limit` (1..100, default 100), after `cursor`
   * (a nextCursor from the page before; invalid-cursor otherwise); nextCursor null on the last.
   */
  async page(
    filter: { game?: string | undefined },
    opts: { limit?: number | undefined; cursor?: string | undefined },
  ): Promise<{ seeks: PublicSeekView[]; nextCursor: string | null }> {
    const limit = Math.min(Math.max(opts.limit ?? LIST_LIMIT, 1), LIST_LIMIT);
    const after = opts.cursor === undefined ? null : decodeSeekCursor(opts.cursor);
    // One row more than the page tells whether there is a next one.
    const rows = await this.store.seeks.listOpen(filter, new Date(this.now()), limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return { seeks: page.map(publicView), nextCursor: rows.length > limit && last ? encodeSeekCursor(last.createdAt, last.id) : null };
  }

  /** The caller's seeks, newest first, with their status. */
  async mine(token: string | null | undefined): Promise<OwnSeekView[]> {
    return this.ofPlayer((await this.players.player(token, 'match:read')).id);
  }

  /** Renews the live seeks of these players, whose feeds are connected to this node (the feeds call it). */
  async renewLive(playerIds: readonly string[]): Promise<number> {
    const now = this.now();
    return this.store.seeks.renewLive(playerIds, new Date(now), new Date(now + this.limits.liveLeaseMs));
  }

  /** A player's seeks, newest first (the account feed's snapshot). */
  async ofPlayer(playerId: string): Promise<OwnSeekView[]> {
    const now = this.now();
    return (await this.store.seeks.ofPlayer(playerId, LIST_LIMIT)).map((s) => ownView(s, now));
  }

  async cancel(token: string | null | undefined, id: string): Promise<OwnSeekView> {
    const player = await this.players.player(token, 'match:create');
    const now = this.now();
    const r = await this.store.seeks.cancel(player.id, id, new Date(now));
    if (!r) throw problems.seekNotFound(id);
    const view = ownView(r.seek, now);
    if (!r.cancelled) throw problems.seekNotOpen(view.status);
    return view;
  }
}
