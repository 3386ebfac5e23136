/**
 * Creating and joining matches, for any hosted game: resolve decks and settings against the
 * game's own rules, deal from a fresh seed (or open a sandbox position), and store the opening
 * with the seats in one write. An open seat defers the deal to the join, whose append decides
 * the race between two joiners.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../core/hash.js';
import { expandDeck, otherSeat, type AnyRuleset, type Seat } from '../../core/ruleset.js';
import { GAME_IDS, type GameId } from '../../games/registry.js';
import {
  VersionConflictError,
  type ChallengeAcceptance,
  type MatchStatus,
  type MatchStore,
  type NewEvent,
  type NewMatch,
  type PlayerRequestKey,
  type Scope,
} from '../../persistence/types.js';
import type { KnownCredentials } from '../accounts/credentials.js';
import { problems } from '../errors.js';
import { gameRuleset } from '../match/games.js';
import type { MatchLoader } from '../match/match-loader.js';
import { rulesetOfRow } from '../match/match-loader.js';
import { NO_RECORDS, clockRecord, foldRecords, gameRecord, openingOf, openingRecord } from '../match/match-log.js';
import { deadlineOf, startClock, type TimeControl } from '../../core/clock.js';
import { matchRulesHash } from '../../core/match-rules.js';
import { hashToken, newMatchId, newSeatToken } from '../accounts/tokens.js';
import { createdWebhookView, newWebhook } from '../webhooks/endpoints.js';
import { requireScope, type Players, type Principal } from '../accounts/players.js';
import { joinNotifications } from '../webhooks/notifications.js';
import type { CreateMatchInput, CreateMatchResult, DeckSpec, JoinInput, JoinResult } from '../match/types.js';
import { deckLabel, ratingFamily } from '../accounts/ratings.js';
import { issueLines } from '../../core/issues.js';

export interface LobbyDeps {
  store: MatchStore;
  players: Players;
  loader: MatchLoader;
  credentials: KnownCredentials;
  /** Epoch ms: the clocks start at the deal. */
  now(): number;
  /** Whether webhook URLs may point at private addresses. */
  webhooksAllowPrivate: boolean;
}

type Opening = { ok: true; state: unknown; events: { type: string }[] } | { ok: false; errors: string[] };

/** The public commitment to a match's seed (every game's views show it; the seed is shown at the end). */
export const seedCommitment = sha256Hex;

/** A deck as card ids (one per copy), checked against the game's deck rules. */
export function resolveDeck(ruleset: AnyRuleset, spec: DeckSpec, config: unknown, label: string): string[] {
  let cards: string[];
  if ('starter' in spec) {
    const deck = ruleset.starterDecks.find((d) => d.id === spec.starter);
    if (!deck) throw problems.invalidDeck([`${label}: no starter deck "${spec.starter}" (see GET /v1/games/${ruleset.id}/decks)`]);
    cards = expandDeck(deck.cards);
  } else {
    cards = expandDeck(spec.cards);
  }
  const errors = ruleset.validateDeck(cards, config);
  if (errors.length > 0) throw problems.invalidDeck(errors.map((e) => `${label}: ${e}`));
  return cards;
}

export function parseSettings(ruleset: AnyRuleset, settings: Record<string, unknown> | undefined): unknown {
  const r = ruleset.configSchema.safeParse(settings ?? {});
  if (!r.success) throw problems.invalidSettings(issueLines(r.error.issues));
  return r.data;
}

function opened(o: Opening, invalid: (errors: string[]) => Error): { state: unknown; events: { type: string }[] } {
  if (!o.ok) throw invalid(o.errors);
  return o;
}

export function statusOf(ruleset: AnyRuleset, state: unknown): MatchStatus {
  return ruleset.outcome(state) ? 'finished' : 'active';
}

const NO_CLOCK: TimeControl = { kind: 'none' };

/** The records a deal stores: the game's opening events and, with a time control, the started clock. */
export function dealRecords(ruleset: AnyRuleset, dealt: { state: unknown; events: { type: string }[] }, control: TimeControl, at: number) {
  const records = dealt.events.map((e) => gameRecord(ruleset, e, null));
  const clock = ruleset.outcome(dealt.state) ? null : startClock(control, toMoveOf(ruleset, dealt.state), at);
  if (clock) records.push(clockRecord(clock, at, null));
  const deadline = clock ? deadlineOf(clock) : null;
  return { records, deadline: deadline === null ? null : new Date(deadline) };
}

/** Whose decision the game waits for, kept on the match row for "my turn" lists. */
export function toMoveOf(ruleset: AnyRuleset, state: unknown): Seat | null {
  return ruleset.pending(state)?.seat ?? null;
}

/**
 * A new match's stored row: its rules pinned (the hash of rules, settings, generator and clock),
 * the seed's commitment, and whose move it is in `state` (null: nothing dealt yet). Every way a
 * match starts (create, a paired seek, a rematch) stores it so.
 */
export function newMatchRow(
  ruleset: AnyRuleset,
  m: Pick<NewMatch, 'id' | 'config' | 'seed' | 'status' | 'seats' | 'rated'> & {
    control: TimeControl;
    state: unknown;
    deadline: Date | null;
    decks: Record<Seat, string[]> | null;
    sandbox?: boolean;
    webhooks?: NewMatch['webhooks'];
    aiOwner?: string | null;
  },
): NewMatch {
  return {
    id: m.id,
    game: ruleset.id,
    rulesVersion: ruleset.rulesVersion,
    engineVersion: ruleset.engineVersion,
    rulesHash: matchRulesHash(ruleset, m.config, m.sandbox ? null : undefined, m.control),
    config: m.config,
    cardSetId: ruleset.cardSet.id,
    cardSetHash: ruleset.cardSet.hash,
    seed: m.seed,
    seedCommitment: seedCommitment(m.seed),
    status: m.status,
    seats: m.seats,
    toMove: m.state === null ? null : toMoveOf(ruleset, m.state),
    deadline: m.deadline,
    timeControl: m.control.kind,
    decks: m.decks,
    rated: m.rated,
    webhooks: m.webhooks ?? [],
    aiOwner: m.aiOwner ?? null,
  };
}

/**
 * The handle a seat is taken under: a player's own (verified), or an anonymous one that no
 * registered player owns.
 */
async function seatIdentity(
  deps: LobbyDeps,
  who: Principal,
  handle: string | undefined,
  scope: Scope,
): Promise<{ handle: string | null; playerId: string | null }> {
  if (who.kind === 'player') {
    requireScope(who, scope);
    if (handle !== undefined && handle.toLowerCase() !== who.player.handle.toLowerCase()) {
      throw problems.validation(`handle: you play as ${who.player.handle} (your token's player); leave handle out.`);
    }
    return { handle: who.player.handle, playerId: who.player.id };
  }
  await deps.players.assertUnreserved([handle]);
  return { handle: handle ?? null, playerId: null };
}

/**
 * A rated match is between two registered players (the creator's token now, the joiner's at the
 * join), with a clock (without one a losing seat could stall forever) and a real deal.
 */
function checkRated(who: Principal, m: { sandbox: boolean; openSeat: boolean; playerOpponent: boolean; control: TimeControl }): void {
  if (who.kind !== 'player') throw problems.ratedNeedsPlayer();
  if (m.sandbox) throw problems.ratedMatchInvalid('a sandbox (position) match is never rated.');
  if (!m.openSeat && !m.playerOpponent)
    throw problems.ratedMatchInvalid('a rated match has an open seat for the opponent, who joins with their own player token.');
  if (ratingFamily(m.control.kind) === null)
    throw problems.ratedMatchInvalid(
      'a rated match needs a time control (correspondence or live): without a clock a losing seat could stall forever.',
    );
}

/**
 * A match the service starts for two known players (an accepted challenge): the second seat is
 * `opponent`'s, and the challenge is marked accepted in the match's own write.
 */
export interface PlayerOpponent {
  opponent: { playerId: string; handle: string };
  /** The challenge this match answers (marked accepted in the same transaction); none for the computer. */
  accept?: ChallengeAcceptance;
  /** Against the computer: who asked for it, the key of its fair share of the workers (NewMatch.aiOwner). */
  aiOwner?: string | null;
  /** The accept's Idempotency-Key, stored with the acceptance; its answer is made from the match as created. */
  requestKey?: (created: { id: string; status: MatchStatus; version: number }) => PlayerRequestKey;
}

export async function createMatch(
  deps: LobbyDeps,
  input: CreateMatchInput,
  who: Principal = { kind: 'anonymous' },
  between?: PlayerOpponent,
): Promise<CreateMatchResult> {
  // Without `game`: the registry's first, the create body's default.
  const ruleset = gameRuleset(input.game ?? GAME_IDS[0]!);
  const game = ruleset.id as GameId;
  const creatorSeat: Seat = input.seat ?? 'p1';
  const secondSeat = otherSeat(creatorSeat);
  const openSeat = input.openSeat ?? false;
  const sandbox = input.position !== undefined;
  const seed = randomBytes(32).toString('hex');
  const control = input.timeControl ?? NO_CLOCK;

  let config: unknown;
  let opening: { state: unknown; events: { type: string }[] } | null = null;
  let creatorDeck: string[] | null = null;
  let dealtDecks: Record<Seat, string[]> | null = null;
  const deckNames: Partial<Record<Seat, string>> = {};
  const rated = input.rated ?? false;
  if (rated) checkRated(who, { sandbox, openSeat, playerOpponent: between !== undefined, control });

  if (sandbox) {
    if (input.decks && Object.keys(input.decks).length > 0) {
      throw problems.validation('A sandbox match starts from its position: do not send decks.');
    }
    if (input.settings && Object.keys(input.settings).length > 0) {
      throw problems.validation('A sandbox match takes its rules settings from the position: do not send settings.');
    }
    const r = opened(ruleset.positions.fromPosition(input.position, seed), problems.invalidPosition);
    config = (r.state as { config: unknown }).config;
    if (!openSeat) opening = r;
  } else {
    config = parseSettings(ruleset, input.settings);
    const creatorSpec = input.decks?.[creatorSeat];
    if (!creatorSpec) throw problems.validation(`decks.${creatorSeat} (the creator's deck) is required.`);
    creatorDeck = resolveDeck(ruleset, creatorSpec, config, `decks.${creatorSeat}`);
    deckNames[creatorSeat] = deckLabel(creatorSpec, creatorDeck);
    const otherSpec = input.decks?.[secondSeat];
    if (openSeat) {
      // The deal happens at join, with this seed.
      if (otherSpec) throw problems.validation(`decks.${secondSeat}: the open seat brings its own deck when it joins.`);
    } else {
      if (!otherSpec) throw problems.validation(`decks.${secondSeat} is required unless openSeat is true.`);
      const otherDeck = resolveDeck(ruleset, otherSpec, config, `decks.${secondSeat}`);
      deckNames[secondSeat] = deckLabel(otherSpec, otherDeck);
      const decks = { [creatorSeat]: creatorDeck, [secondSeat]: otherDeck } as Record<Seat, string[]>;
      opening = opened(ruleset.create({ config, decks, seed }), problems.invalidDeck);
      dealtDecks = decks;
    }
  }
  if (openSeat && input.opponentHandle !== undefined) {
    throw problems.validation('opponentHandle is for matches without an open seat; the joiner picks a handle.');
  }

  const creatorHook = input.webhook ? newWebhook(creatorSeat, input.webhook, deps.webhooksAllowPrivate) : null;
  const id = newMatchId();
  const tokens: Partial<Record<Seat, string>> = { [creatorSeat]: newSeatToken() };
  if (!openSeat) tokens[secondSeat] = newSeatToken();

  let events: NewEvent[];
  let status: MatchStatus;
  let deadline: Date | null = null;
  if (openSeat) {
    const timeControl = control.kind === 'none' ? {} : { timeControl: control };
    events = [
      openingRecord({
        creatorSeat,
        deck: creatorDeck,
        position: sandbox ? input.position : null,
        config,
        rng: ruleset.generator,
        ...timeControl,
      }),
    ];
    status = 'waiting';
  } else {
    if (!opening) throw new Error('unreachable: no opening for a match without an open seat');
    ({ records: events, deadline } = dealRecords(ruleset, opening, control, deps.now()));
    status = statusOf(ruleset, opening.state);
  }

  const creator = await seatIdentity(deps, who, input.handle, 'match:create');
  await deps.players.assertUnreserved([openSeat ? undefined : input.opponentHandle]);
  const seatRecords = (['p1', 'p2'] as const).map((s) => ({
    seat: s,
    tokenHash: tokens[s] ? hashToken(tokens[s]) : null,
    playerId: s === creatorSeat ? creator.playerId : (between?.opponent.playerId ?? null),
    deck: deckNames[s] ?? null,
    handle: s === creatorSeat ? creator.handle : openSeat ? null : (between?.opponent.handle ?? input.opponentHandle ?? null),
  }));
  const row = await deps.store.createMatch(
    newMatchRow(ruleset, {
      id,
      config,
      seed,
      control,
      sandbox,
      status,
      seats: seatRecords,
      state: opening?.state ?? null,
      deadline,
      decks: dealtDecks,
      rated,
      webhooks: input.webhook ? [creatorHook!] : [],
      aiOwner: between?.aiOwner ?? null,
    }),
    events,
    between?.accept && between.requestKey
      ? { ...between.accept, requestKey: between.requestKey({ id, status, version: events.length }) }
      : between?.accept,
  );
  if (opening)
    deps.loader.remember({ ...foldRecords(NO_RECORDS, events), row, ruleset, version: row.version, state: opening.state, sandbox });
  for (const r of seatRecords) if (r.tokenHash) deps.credentials.remember(r.tokenHash);
  return {
    id,
    game,
    seat: creatorSeat,
    status,
    version: row.version,
    tokens,
    ...(creatorHook ? { webhook: createdWebhookView(creatorHook, id, row.createdAt) } : {}),
  };
}

export async function joinMatch(
  deps: LobbyDeps,
  id: string,
  input: JoinInput,
  who: Principal = { kind: 'anonymous' },
): Promise<JoinResult> {
  const row = await deps.store.getMatch(id);
  if (!row) throw problems.matchNotFound(id);
  // Cancelled by its creator before anyone joined: over, not merely full.
  if (row.status === 'finished') throw problems.notActive('finished', row.version);
  const open = row.seats.find((s) => s.tokenHash === null);
  if (!open) throw problems.seatTaken();
  const ruleset = rulesetOfRow(row);
  const seat = open.seat as Seat;
  const log = await deps.store.loadEvents(id);
  const opening = openingOf(log);
  // The deal and the seat are stored together, so a match past its opening has no open seat.
  // Lost to another joiner (seat taken) or to the creator's cancel (finished, the seat still open).
  const gone = async () => {
    const now = await deps.store.getMatch(id);
    return now?.status === 'finished' && now.seats.some((s) => s.seat === seat && s.tokenHash === null)
      ? problems.notActive('finished', now.version)
      : problems.seatTaken();
  };
  if (row.status !== 'waiting' || !opening || log.length !== 1) throw await gone();

  // A rated match's second seat is a player's too (checked before anything is dealt).
  if (row.rated && who.kind !== 'player') throw problems.ratedNeedsPlayer();
  const joiner = await seatIdentity(deps, who, input.handle, 'match:create');
  // One player on both seats would be a match against oneself.
  if (joiner.playerId !== null && row.seats.some((s) => s.playerId === joiner.playerId)) {
    throw problems.validation('You already hold the other seat of this match.');
  }
  const token = newSeatToken();
  const tokenHash = hashToken(token);
  const hook = input.webhook ? newWebhook(seat, input.webhook, deps.webhooksAllowPrivate) : null;
  const sandbox = opening.position !== null && opening.position !== undefined;
  let dealtDecks: Record<Seat, string[]> | null = null;
  let deckName: string | null = null;
  let dealt: { state: unknown; events: { type: string }[] };
  if (sandbox) {
    if (input.deck) throw problems.validation('This is a sandbox match: its position holds the decks; do not send one.');
    dealt = opened(ruleset.positions.fromPosition(opening.position, row.seed), problems.invalidPosition);
  } else {
    if (!input.deck) throw problems.validation('deck is required to join this match.');
    const deck = resolveDeck(ruleset, input.deck, opening.config, 'deck');
    deckName = deckLabel(input.deck, deck);
    const decks = { [opening.creatorSeat]: opening.deck ?? [], [seat]: deck } as Record<Seat, string[]>;
    dealtDecks = decks;
    // Dealt with the generator recorded when the seat was opened (rows from before keyed streams: sfc32).
    dealt = opened(
      ruleset.create({ config: opening.config, decks, seed: row.seed, generator: opening.rng ?? 'sfc32' }),
      problems.invalidDeck,
    );
  }
  const status = statusOf(ruleset, dealt.state);
  const toMove = toMoveOf(ruleset, dealt.state);
  const { records, deadline } = dealRecords(ruleset, dealt, opening.timeControl ?? NO_CLOCK, deps.now());
  // One transaction stores the deal and takes the seat; the append decides the race between
  // two joiners (expected version 1): only one deal is stored, the other gets seat-taken.
  let version: number;
  try {
    version = await deps.store.appendEvents(id, log[0]!.seq, records, {
      row: { status, toMove, deadline },
      join: {
        claim: { seat, tokenHash, handle: joiner.handle, playerId: joiner.playerId, deck: deckName },
        ...(dealtDecks ? { decks: dealtDecks } : {}),
        ...(hook ? { webhook: hook } : {}),
      },
      notify: joinNotifications(opening.creatorSeat, { status, toMove, deadline }),
    });
  } catch (e) {
    if (e instanceof VersionConflictError) throw await gone();
    throw e;
  }
  const joined = {
    ...row,
    version,
    status,
    toMove,
    deadline,
    decks: dealtDecks ?? row.decks,
    seats: row.seats.map((x) =>
      x.seat === seat
        ? {
            ...x,
            tokenHash,
            handle: joiner.handle,
            playerId: joiner.playerId,
            deck: deckName,
            bot: who.kind === 'player' && who.player.bot,
          }
        : x,
    ),
  };
  deps.loader.remember({ ...foldRecords(NO_RECORDS, records), row: joined, ruleset, version, state: dealt.state, sandbox });
  deps.credentials.remember(tokenHash);
  return { id, seat, token, version, status, ...(hook ? { webhook: createdWebhookView(hook, id, new Date()) } : {}) };
}

/** One seat of a match two seeks paired: a registered player and the deck their seek resolved. */
export interface PairedSeat {
  playerId: string;
  handle: string;
  deck: string[];
  deckName: string;
}

/**
 * The match two paired seeks start, dealt as a create with both decks would deal it (the game's
 * default settings, a fresh seed, the clock started at the deal), ready to be stored in the
 * pairing's own transaction. Both seats are players, who play with their player tokens: each
 * seat gets a token hash (so neither seat reads as open) whose token is never issued.
 */
export function dealPairedMatch(input: {
  game: GameId;
  control: TimeControl;
  rated: boolean;
  seats: Record<Seat, PairedSeat>;
  now: number;
}): { match: NewMatch; events: NewEvent[] } {
  const ruleset = gameRuleset(input.game);
  const config = parseSettings(ruleset, {});
  const seed = randomBytes(32).toString('hex');
  const decks = { p1: input.seats.p1.deck, p2: input.seats.p2.deck };
  const dealt = opened(ruleset.create({ config, decks, seed }), problems.invalidDeck);
  const { records, deadline } = dealRecords(ruleset, dealt, input.control, input.now);
  return {
    match: newMatchRow(ruleset, {
      id: newMatchId(),
      config,
      seed,
      control: input.control,
      status: statusOf(ruleset, dealt.state),
      seats: (['p1', 'p2'] as const).map((s) => ({
        seat: s,
        tokenHash: hashToken(newSeatToken()),
        playerId: input.seats[s].playerId,
        handle: input.seats[s].handle,
        deck: input.seats[s].deckName,
      })),
      state: dealt.state,
      deadline,
      decks,
      rated: input.rated,
    }),
    events: records,
  };
}
