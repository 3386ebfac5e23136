/**
 * Creating and joining matches, for any hosted game: resolve decks and settings against the
 * game's own rules, deal from a fresh seed (or open a sandbox position), and store the opening
 * with the seats in one write. An open seat defers the deal to the join, whose append decides
 * the race between two joiners.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../core/hash.js';
import { expandDeck, otherSeat, type AnyRuleset, type Seat } from '../core/ruleset.js';
import type { GameId } from '../games/registry.js';
import { VersionConflictError, type MatchStatus, type MatchStore, type NewEvent, type Scope } from '../persistence/types.js';
import type { KnownCredentials } from './credentials.js';
import { problems } from './errors.js';
import { gameRuleset } from './games.js';
import type { MatchLoader } from './match-loader.js';
import { rulesetOfRow } from './match-loader.js';
import { NO_RECORDS, clockRecord, foldRecords, gameRecord, openingOf, openingRecord } from './match-log.js';
import { deadlineOf, startClock, type TimeControl } from '../core/clock.js';
import { matchRulesHash } from '../core/match-rules.js';
import { hashToken, newMatchId, newSeatToken } from './tokens.js';
import { createdWebhookView, newWebhook } from './webhooks/endpoints.js';
import { requireScope, type Players, type Principal } from './players.js';
import { joinNotifications } from './webhooks/notifications.js';
import type { CreateMatchInput, CreateMatchResult, DeckSpec, JoinInput, JoinResult } from './types.js';
import { deckLabel, ratingFamily } from './ratings.js';

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
const seedCommitment = sha256Hex;

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

function parseSettings(ruleset: AnyRuleset, settings: Record<string, unknown> | undefined): unknown {
  const r = ruleset.configSchema.safeParse(settings ?? {});
  if (!r.success) throw problems.invalidSettings(r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  return r.data;
}

function opened(o: Opening, invalid: (errors: string[]) => Error): { state: unknown; events: { type: string }[] } {
  if (!o.ok) throw invalid(o.errors);
  return o;
}

function statusOf(ruleset: AnyRuleset, state: unknown): MatchStatus {
  return ruleset.outcome(state) ? 'finished' : 'active';
}

const NO_CLOCK: TimeControl = { kind: 'none' };

/** The records a deal stores: the game's opening events and, with a time control, the started clock. */
function dealRecords(ruleset: AnyRuleset, dealt: { state: unknown; events: { type: string }[] }, control: TimeControl, at: number) {
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
 * The handle a seat is taken under: a player's own (verified), or an anonymous one that no
 * registered player owns.
 */
async function seatIdentity(deps: LobbyDeps, who: Principal, handle: string | undefined, scope: Scope): Promise<{ handle: string | null; playerId: string | null }> {
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
function checkRated(who: Principal, m: { sandbox: boolean; openSeat: boolean; control: TimeControl }): void {
  if (who.kind !== 'player') throw problems.ratedNeedsPlayer();
  if (m.sandbox) throw problems.ratedMatchInvalid('a sandbox (position) match is never rated.');
  if (!m.openSeat) throw problems.ratedMatchInvalid('a rated match has an open seat for the opponent, who joins with their own player token.');
  if (ratingFamily(m.control.kind) === null) throw problems.ratedMatchInvalid('a rated match needs a time control (correspondence or live): without a clock a losing seat could stall forever.');
}

export async function createMatch(deps: LobbyDeps, input: CreateMatchInput, who: Principal = { kind: 'anonymous' }): Promise<CreateMatchResult> {
  const ruleset = gameRuleset(input.game ?? 'evons');
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
  if (rated) checkRated(who, { sandbox, openSeat, control });

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
    events = [openingRecord({ creatorSeat, deck: creatorDeck, position: sandbox ? input.position : null, config, rng: ruleset.generator, ...timeControl })];
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
    playerId: s === creatorSeat ? creator.playerId : null,
    deck: deckNames[s] ?? null,
    handle: s === creatorSeat ? creator.handle : openSeat ? null : (input.opponentHandle ?? null),
  }));
  const row = await deps.store.createMatch(
    {
      id,
      game,
      rulesVersion: ruleset.rulesVersion,
      engineVersion: ruleset.engineVersion,
      rulesHash: matchRulesHash(ruleset, config, sandbox ? null : undefined, control),
      config,
      cardSetId: ruleset.cardSet.id,
      cardSetHash: ruleset.cardSet.hash,
      seed,
      seedCommitment: seedCommitment(seed),
      status,
      seats: seatRecords,
      toMove: opening ? toMoveOf(ruleset, opening.state) : null,
      deadline,
      timeControl: control.kind,
      decks: dealtDecks,
      rated,
      webhooks: input.webhook ? [creatorHook!] : [],
    },
    events,
  );
  if (opening) deps.loader.remember({ ...foldRecords(NO_RECORDS, events), row, ruleset, version: row.version, state: opening.state, sandbox });
  for (const r of seatRecords) if (r.tokenHash) deps.credentials.remember(r.tokenHash);
  return { id, game, seat: creatorSeat, status, version: row.version, tokens, ...(creatorHook ? { webhook: createdWebhookView(creatorHook, id, row.createdAt) } : {}) };
}

export async function joinMatch(deps: LobbyDeps, id: string, input: JoinInput, who: Principal = { kind: 'anonymous' }): Promise<JoinResult> {
  const row = await deps.store.getMatch(id);
  if (!row) throw problems.matchNotFound(id);
  const open = row.seats.find((s) => s.tokenHash === null);
  if (!open) throw problems.seatTaken();
  const ruleset = rulesetOfRow(row);
  const seat = open.seat as Seat;
  const log = await deps.store.loadEvents(id);
  const opening = openingOf(log);
  // The deal and the seat are stored together, so a match past its opening has no open seat.
  if (row.status !== 'waiting' || !opening || log.length !== 1) throw problems.seatTaken();

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
    dealt = opened(ruleset.create({ config: opening.config, decks, seed: row.seed, generator: opening.rng ?? 'sfc32' }), problems.invalidDeck);
  }
  const status = statusOf(ruleset, dealt.state);
  const toMove = toMoveOf(ruleset, dealt.state);
  const { records, deadline } = dealRecords(ruleset, dealt, opening.timeControl ?? NO_CLOCK, deps.now());
  // One transaction stores the deal and takes the seat; the append decides the race between
  // two joiners (expected version 1): only one deal is stored, the other gets seat-taken.
  let version: number;
  try {
    version = await deps.store.appendEvents(id, log[0]!.seq, records, {
      status,
      toMove,
      deadline,
      claimSeat: { seat, tokenHash, handle: joiner.handle, playerId: joiner.playerId, deck: deckName },
      notify: joinNotifications(opening.creatorSeat, { status, toMove, deadline }),
      ...(dealtDecks ? { decks: dealtDecks } : {}),
      ...(hook ? { registerWebhook: hook } : {}),
    });
  } catch (e) {
    if (e instanceof VersionConflictError) throw problems.seatTaken();
    throw e;
  }
  const joined = { ...row, version, status, toMove, deadline, decks: dealtDecks ?? row.decks, seats: row.seats.map((x) => (x.seat === seat ? { ...x, tokenHash, handle: joiner.handle, playerId: joiner.playerId, deck: deckName, bot: who.kind === 'player' && who.player.bot } : x)) };
  deps.loader.remember({ ...foldRecords(NO_RECORDS, records), row: joined, ruleset, version, state: dealt.state, sandbox });
  deps.credentials.remember(tokenHash);
  return { id, seat, token, version, status, ...(hook ? { webhook: createdWebhookView(hook, id, new Date()) } : {}) };
}
