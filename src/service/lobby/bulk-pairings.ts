/**
 * Bulk pairing, as lichess has it for organizers: many matches in one call between listed pairs of
 * players, created together at a set time. Each player consents by giving the organizer a player
 * token with pairing:play and no other scope; the tokens are checked when the organizer asks and
 * never stored (the pairs are kept as player ids), but each token's row is bound to the pairing
 * in the transaction that creates it, so the token reads and acts in that pairing's matches only
 * (../accounts/players.ts, requireScopeIn) and cannot be given to a second pairing. The matches are created
 * at `pairAt` (now when absent) in one transaction by whichever node gets there first; each
 * player's account feed then hears match-started.
 */
import { randomBytes } from 'node:crypto';
import type { TimeControl } from '../../core/clock.js';
import { GAME_IDS, type GameId } from '../../games/registry.js';
import type { BulkPairingRow, BulkPairingStatus, PlayerRow, UnpairedReason } from '../../persistence/types.js';
import { BulkPairingIdSchema } from '../../contract/ids.js';
import { ServiceError, problems } from '../errors.js';
import { gameRuleset } from '../match/games.js';
import { dealPairedMatch, parseSettings, resolveDeck, type LobbyDeps } from './lobby.js';
import { deckLabel, ratingFamily } from '../accounts/ratings.js';
import type { DeckSpec } from '../match/types.js';

/** Matches one organizer may pair in any minute, over every node (BULK_PAIRING_PER_MINUTE). */
export const DEFAULT_BULK_PAIRING_PER_MINUTE = 400;
/** How far ahead pairAt may be (days). */
export const PAIR_AT_HORIZON_DAYS = 30;
const BUDGET_WINDOW_MS = 60_000;

export interface BulkPairingSettings {
  perMinute: number;
}

export interface CreateBulkPairingInput {
  /** The players' tokens, two per match. */
  pairs: { p1: string; p2: string }[];
  game?: string | undefined;
  timeControl: TimeControl;
  rated?: boolean | undefined;
  deck?: DeckSpec | undefined;
  /** When the matches are created and their clocks start (ISO 8601; default now). */
  pairAt?: string | undefined;
}

/** What the organizer sees: the pairs by handle, and each match once created. No token, no deck. */
export interface BulkPairingView {
  id: string;
  game: string;
  timeControl: TimeControl;
  rated: boolean;
  pairAt: string;
  status: BulkPairingStatus;
  createdAt: string;
  pairedAt: string | null;
  pairs: { board: number; p1: string; p2: string; matchId: string | null; unpairedReason: UnpairedReason | null }[];
}

function bulkView(b: BulkPairingRow): BulkPairingView {
  return {
    id: b.id,
    game: b.game,
    timeControl: b.timeControl as TimeControl,
    rated: b.rated,
    pairAt: b.pairAt.toISOString(),
    status: b.status,
    createdAt: b.createdAt.toISOString(),
    pairedAt: b.pairedAt?.toISOString() ?? null,
    pairs: b.boards.map((x) => ({ board: x.board, p1: x.p1Handle, p2: x.p2Handle, matchId: x.matchId, unpairedReason: x.unpairedReason })),
  };
}

export class BulkPairings {
  constructor(
    private readonly deps: LobbyDeps,
    private readonly settings: BulkPairingSettings = { perMinute: DEFAULT_BULK_PAIRING_PER_MINUTE },
  ) {}

  private get store() {
    return this.deps.store.bulkPairings;
  }

  async create(me: PlayerRow, input: CreateBulkPairingInput): Promise<BulkPairingView> {
    const ruleset = gameRuleset(input.game ?? GAME_IDS[0]!);
    const rated = input.rated ?? false;
    if (input.timeControl.kind === 'none')
      throw problems.validation('timeControl: bulk pairings are played with a clock (correspondence or live).');
    if (rated && ratingFamily(input.timeControl.kind) === null) throw problems.ratedMatchInvalid('a rated match needs a time control.');
    const deck: DeckSpec = input.deck ?? { starter: ruleset.starterDecks[0]!.id };
    resolveDeck(ruleset, deck, parseSettings(ruleset, {}), 'deck');
    const at = this.deps.now();
    const pairAt = input.pairAt === undefined ? at : Date.parse(input.pairAt);
    if (!(pairAt <= at + PAIR_AT_HORIZON_DAYS * 86_400_000)) throw problems.pairAtOutOfRange(PAIR_AT_HORIZON_DAYS);
    if (input.pairs.length > this.settings.perMinute) throw problems.tooManyBulkPairings(this.settings.perMinute, BUDGET_WINDOW_MS / 1000);
    // Every token is checked before anything is stored; the errors name the entry, never the token.
    const errors: string[] = [];
    const ids: { p1: string; p2: string }[] = [];
    const seen = new Map<string, string>();
    const tokenIds = new Set<string>();
    for (const [i, pair] of input.pairs.entries()) {
      const both: Partial<Record<'p1' | 'p2', string>> = {};
      for (const side of ['p1', 'p2'] as const) {
        const where = `pairs[${i}].${side}`;
        try {
          const principal = await this.deps.players.principal(pair[side]);
          if (principal.kind !== 'player') throw problems.invalidToken();
          // A token that reaches beyond the pairing (match:play acts in every match of its player) is no consent to one pairing.
          if (!principal.scopes.includes('pairing:play')) throw problems.insufficientScope('pairing:play');
          if (principal.scopes.length > 1) {
            errors.push(`${where}: a pairing takes a token with pairing:play and no other scope.`);
            continue;
          }
          if (principal.pairing?.id != null) {
            errors.push(`${where}: the token was given for another bulk pairing.`);
            continue;
          }
          const p = principal.player;
          const earlier = seen.get(p.id);
          if (earlier) errors.push(`${where}: ${p.handle} is paired already (${earlier}).`);
          seen.set(p.id, where);
          both[side] = p.id;
          tokenIds.add(principal.tokenId!);
        } catch (e) {
          if (!(e instanceof ServiceError)) throw e;
          errors.push(`${where}: ${e.code === 'insufficient-scope' ? 'the token lacks pairing:play' : 'not a player token'}.`);
        }
      }
      if (both.p1 && both.p2) ids.push({ p1: both.p1, p2: both.p2 });
    }
    if (errors.length > 0) throw problems.validation(`${errors.length} of the pairs' tokens cannot be used.`, errors);
    const id = `bp_${randomBytes(12).toString('base64url')}`;
    const created = await this.store.create({
      id,
      organizerId: me.id,
      game: ruleset.id,
      timeControl: input.timeControl,
      rated,
      deck,
      pairAt: new Date(Math.max(at, pairAt)),
      createdAt: new Date(at),
      pairs: ids,
      tokenIds: [...tokenIds],
      budget: { perMinute: this.settings.perMinute, windowMs: BUDGET_WINDOW_MS },
    });
    if (typeof created === 'object')
      throw problems.tooManyBulkPairings(this.settings.perMinute, Math.max(1, Math.ceil((created.retryAt.getTime() - at) / 1000)));
    // A token bound (or revoked) meanwhile by another request: the pairing was not stored.
    if (created !== 'created')
      throw problems.validation('A token of the pairs was given for another bulk pairing or revoked meanwhile.', [
        'pairs: a token was given for another bulk pairing or revoked meanwhile.',
      ]);
    if (pairAt <= at) await this.pair(id);
    return this.view(id);
  }

  private async row(id: string): Promise<BulkPairingRow> {
    const b = BulkPairingIdSchema.safeParse(id).success ? await this.store.get(id) : null;
    if (!b) throw problems.bulkPairingNotFound(id);
    return b;
  }

  private async view(id: string): Promise<BulkPairingView> {
    return bulkView(await this.row(id));
  }

  /** The organizer's own bulk pairing (anyone else: not found, as a list of tokens' owners is theirs alone). */
  async get(me: PlayerRow, id: string): Promise<BulkPairingView> {
    const b = await this.row(id);
    if (b.organizerId !== me.id) throw problems.bulkPairingNotFound(id);
    return bulkView(b);
  }

  async list(me: PlayerRow): Promise<BulkPairingView[]> {
    return (await this.store.ofOrganizer(me.id, 100)).map(bulkView);
  }

  async cancel(me: PlayerRow, id: string): Promise<BulkPairingView> {
    const b = await this.get(me, id);
    if (!(await this.store.cancel(id))) throw problems.bulkPairingClosed(b.status === 'scheduled' ? 'created' : b.status);
    return this.view(id);
  }

  /** Creates the matches of a scheduled bulk pairing now (once, whichever node calls). */
  async pair(id: string): Promise<boolean> {
    const b = await this.store.get(id);
    if (!b || b.status !== 'scheduled') return false;
    const now = this.deps.now();
    const game = b.game as GameId;
    const ruleset = gameRuleset(game);
    const spec = b.deck as DeckSpec;
    const cards = resolveDeck(ruleset, spec, parseSettings(ruleset, {}), 'deck');
    const deckName = deckLabel(spec, cards);
    const seat = (playerId: string, handle: string) => ({ playerId, handle, deck: cards, deckName });
    const matches = b.boards.map((x) =>
      dealPairedMatch({
        game,
        control: b.timeControl as TimeControl,
        rated: b.rated,
        seats: { p1: seat(x.p1, x.p1Handle), p2: seat(x.p2, x.p2Handle) },
        now,
      }),
    );
    return this.store.pair(id, new Date(now), matches);
  }

  /** Pairs every scheduled bulk pairing whose time has come (the sweeper calls it on every node). */
  async sweep(limit = 20): Promise<number> {
    let n = 0;
    for (const id of await this.store.due(new Date(this.deps.now()), limit)) if (await this.pair(id)) n++;
    return n;
  }
}
