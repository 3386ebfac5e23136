/**
 * The match service: orchestrates the pure rules engine and the match store. Both the REST routes
 * and the GraphQL resolvers call it, so the two APIs share one set of semantics and error codes.
 *
 * Move path (submitAction): take the match from the loader's cache (match-loader.ts; replay of
 * the stored events when not cached), check the action with the engine's pure `apply`, then
 * append the new events with the expected version, the status/winner and the idempotency record
 * in ONE statement. The database decides lost races (VersionConflictError → 409), so an action
 * is never applied twice; a stale cache costs one reload, never a wrong answer.
 */
import { randomBytes } from 'node:crypto';
import {
  ENGINE_VERSION,
  defaultCardSet,
  parseConfig,
  validateDeck,
  expandDeckList,
  createGame,
  createFromPosition,
  apply,
  legalActions,
  pendingDecision,
  view,
  redactEvent,
  eventVisibility,
  actionDescriber,
  rulesHash,
  CURRENT_GENERATOR,
  RULES_VERSION,
  evons,
  seedCommitment,
  type Action,
  type CardSet,
  type GameEvent,
  type GameState,
  type RulesConfig,
  type Seat,
  type Viewer,
} from '../games/evons/index.js';
import {
  VersionConflictError,
  type MatchRow,
  type MatchStatus,
  type MatchStore,
  type NewEvent,
  type StoredEvent,
} from '../persistence/types.js';
import { ServiceError, problems } from './errors.js';
import { MATCH_OPENED, MatchLoader, type MatchEntry } from './match-loader.js';
import { LiveUpdates } from './live.js';
import { KnownCredentials } from './credentials.js';
import { hashToken, newMatchId, newSeatToken, sameHash } from './tokens.js';
import { canonicalJson, sha256Hex } from '../games/evons/hash.js';

export { MATCH_OPENED };
export type * from './types.js';
import type {
  ActionOutcome,
  ActionResult,
  CreateMatchInput,
  CreateMatchResult,
  DeckSpec,
  EventDto,
  JoinInput,
  LegalActionDto,
  LoadedMatch,
  MatchListFilterInput,
  MatchOpenedPayload,
  MatchPageDto,
  MatchView,
} from './types.js';
import { listMatches, myMatches, type MyMatchesQuery } from './history.js';

export interface MatchServiceOptions {
  store: MatchStore;
  cacheSize?: number;
}

const DEFAULT_CACHE_SIZE = 500;

export class MatchService {
  readonly store: MatchStore;
  readonly cardSet: CardSet;
  private readonly loader: MatchLoader;
  /** Committed appends from any node, for live streams. */
  readonly live: LiveUpdates;
  /** Token hashes verified on this node (the rate limiter keys on them). */
  readonly credentials = new KnownCredentials();

  constructor(opts: MatchServiceOptions) {
    this.store = opts.store;
    this.cardSet = defaultCardSet();
    this.loader = new MatchLoader(this.store, this.cardSet, opts.cacheSize ?? DEFAULT_CACHE_SIZE);
    this.live = new LiveUpdates(this.store);
  }

  /** Loader counters (replays, cache hits, catch-ups) for tests and metrics. */
  get stats() {
    return this.loader.stats;
  }

  // ---------------------------------------------------------------- catalogue

  starterDecks() {
    return this.cardSet.file.starterDecks;
  }

  resolveDeck(spec: DeckSpec, label: string): string[] {
    let cards: string[];
    if ('starter' in spec) {
      const deck = this.cardSet.file.starterDecks.find((d) => d.id === spec.starter);
      if (!deck) throw problems.invalidDeck([`${label}: no starter deck "${spec.starter}" (see GET /v1/decks)`]);
      cards = expandDeckList(deck.cards);
    } else {
      cards = expandDeckList(spec.cards);
    }
    const r = validateDeck(this.cardSet, cards);
    if (!r.ok) throw problems.invalidDeck(r.errors.map((e) => `${label}: ${e}`));
    return cards;
  }

  // ---------------------------------------------------------------- create / join

  async createMatch(input: CreateMatchInput): Promise<CreateMatchResult> {
    const creatorSeat: Seat = input.seat ?? 'p1';
    const otherSeat: Seat = creatorSeat === 'p1' ? 'p2' : 'p1';
    const openSeat = input.openSeat ?? false;
    const sandbox = input.position !== undefined;
    const seed = randomBytes(32).toString('hex');

    let config: RulesConfig;
    let opening: { state: GameState; events: GameEvent[] } | null = null;
    let commitment = seedCommitment(seed);
    let creatorDeck: string[] | null = null;

    if (sandbox) {
      if (input.decks && Object.keys(input.decks).length > 0) {
        throw problems.validation('A sandbox match starts from its position: do not send decks.');
      }
      if (input.settings && Object.keys(input.settings).length > 0) {
        throw problems.validation('A sandbox match takes its rules settings from the position: do not send settings.');
      }
      const r = createFromPosition(this.cardSet, input.position, seed);
      if (!r.ok) throw problems.invalidPosition(r.errors);
      config = r.state.config;
      commitment = r.state.seedCommitment;
      if (!openSeat) opening = { state: r.state, events: r.events };
    } else {
      const pc = parseConfig(input.settings ?? {});
      if (!pc.ok) throw problems.invalidSettings(pc.errors);
      config = pc.config;
      const creatorSpec = input.decks?.[creatorSeat];
      if (!creatorSpec) throw problems.validation(`decks.${creatorSeat} (the creator's deck) is required.`);
      creatorDeck = this.resolveDeck(creatorSpec, `decks.${creatorSeat}`);
      const otherSpec = input.decks?.[otherSeat];
      if (openSeat) {
        if (otherSpec) throw problems.validation(`decks.${otherSeat}: the open seat brings its own deck when it joins.`);
        // The deal happens at join, with this seed.
      } else {
        if (!otherSpec) throw problems.validation(`decks.${otherSeat} is required unless openSeat is true.`);
        const otherDeck = this.resolveDeck(otherSpec, `decks.${otherSeat}`);
        const r = createGame({ cardSet: this.cardSet, config, decks: { [creatorSeat]: creatorDeck, [otherSeat]: otherDeck } as Record<Seat, string[]>, seed });
        if (!r.ok) throw problems.invalidDeck(r.errors);
        opening = r;
      }
    }
    if (openSeat && input.opponentHandle !== undefined) {
      throw problems.validation('opponentHandle is for matches without an open seat; the joiner picks a handle.');
    }

    const id = newMatchId();
    const tokens: Partial<Record<Seat, string>> = {};
    tokens[creatorSeat] = newSeatToken();
    if (!openSeat) tokens[otherSeat] = newSeatToken();

    let events: NewEvent[];
    let status: MatchStatus;
    if (openSeat) {
      const payload: MatchOpenedPayload = { type: MATCH_OPENED, creatorSeat, deck: creatorDeck, position: sandbox ? input.position : null, config, rng: CURRENT_GENERATOR };
      events = [{ type: MATCH_OPENED, payload, visibility: 'server', actingSeat: creatorSeat }];
      status = 'waiting';
    } else {
      if (!opening) throw new Error('unreachable: no opening for a match without an open seat');
      events = opening.events.map((e) => toNewEvent(e, null));
      status = opening.state.result ? 'finished' : 'active';
    }

    const seatRecords = (['p1', 'p2'] as const).map((s) => ({
      seat: s,
      tokenHash: tokens[s] ? hashToken(tokens[s]) : null,
      handle: s === creatorSeat ? (input.handle ?? null) : openSeat ? null : (input.opponentHandle ?? null),
    }));
    const row = await this.store.createMatch(
      {
        id,
        game: evons.id,
        rulesVersion: RULES_VERSION,
        engineVersion: ENGINE_VERSION,
        rulesHash: rulesHash(config, this.cardSet, sandbox ? null : CURRENT_GENERATOR),
        config,
        cardSetId: this.cardSet.id,
        cardSetHash: this.cardSet.hash,
        seed,
        seedCommitment: commitment,
        status,
        seats: seatRecords,
        toMove: opening ? toMoveOf(opening.state) : null,
      },
      events,
    );
    if (opening) this.loader.remember({ row, version: row.version, state: opening.state, sandbox });
    for (const r of seatRecords) if (r.tokenHash) this.credentials.remember(r.tokenHash);
    return { id, seat: creatorSeat, status, version: row.version, tokens };
  }

  async joinMatch(id: string, input: JoinInput): Promise<{ id: string; seat: Seat; token: string; version: number; status: MatchStatus }> {
    const row = await this.getRow(id);
    const open = row.seats.find((s) => s.tokenHash === null);
    if (!open) throw problems.seatTaken();
    const seat = open.seat as Seat;
    const events = await this.store.loadEvents(id);
    const first = events[0];
    const token = newSeatToken();
    const tokenHash = hashToken(token);

    if (row.status === 'waiting' && first?.type === MATCH_OPENED && events.length === 1) {
      const opened = first.payload as MatchOpenedPayload;
      let opening: { state: GameState; events: GameEvent[] };
      if (opened.position !== null && opened.position !== undefined) {
        if (input.deck) throw problems.validation('This is a sandbox match: its position holds the decks; do not send one.');
        const r = createFromPosition(this.cardSet, opened.position, row.seed);
        if (!r.ok) throw problems.invalidPosition(r.errors);
        opening = { state: r.state, events: r.events };
      } else {
        if (!input.deck) throw problems.validation('deck is required to join this match.');
        const deck = this.resolveDeck(input.deck, 'deck');
        const decks = { [opened.creatorSeat]: opened.deck ?? [], [seat]: deck } as Record<Seat, string[]>;
        // Dealt with the generator recorded when the seat was opened (legacy rows: sfc32).
        const r = createGame({ cardSet: this.cardSet, config: opened.config, decks, seed: row.seed, rng: opened.rng ?? 'sfc32' });
        if (!r.ok) throw problems.invalidDeck(r.errors);
        opening = r;
      }
      const status: MatchStatus = opening.state.result ? 'finished' : 'active';
      const toMove = toMoveOf(opening.state);
      // One transaction stores the deal and takes the seat; the append decides the race between
      // two joiners (expected version 1): only one deal is stored, the other gets seat-taken.
      let version: number;
      try {
        version = await this.store.appendEvents(id, first.seq, opening.events.map((e) => toNewEvent(e, null)), {
          status,
          toMove,
          claimSeat: { seat, tokenHash, handle: input.handle ?? null },
        });
      } catch (e) {
        if (e instanceof VersionConflictError) throw problems.seatTaken();
        throw e;
      }
      const joined = { ...row, version, status, toMove, seats: row.seats.map((x) => (x.seat === seat ? { ...x, tokenHash, handle: input.handle ?? null } : x)) };
      this.loader.remember({ row: joined, version, state: opening.state, sandbox: opened.position !== null && opened.position !== undefined });
      this.credentials.remember(tokenHash);
      return { id, seat, token, version, status };
    }

    // The deal and the seat are stored together, so a match past its opening has no open seat.
    throw problems.seatTaken();
  }

  // ---------------------------------------------------------------- reading

  private async getRow(id: string): Promise<MatchRow> {
    const row = await this.store.getMatch(id);
    if (!row) throw problems.matchNotFound(id);
    return row;
  }

  /** Who the token belongs to in this match. undefined token = spectator; a bad token is an error. */
  seatOf(row: MatchRow, token: string | null | undefined): Seat | null {
    if (token === undefined) return null;
    if (token === null) throw problems.invalidToken();
    const h = hashToken(token);
    const s = row.seats.find((x) => x.tokenHash !== null && sameHash(x.tokenHash, h));
    if (!s) throw problems.invalidToken();
    this.credentials.remember(h);
    return s.seat as Seat;
  }

  /** Loads a match for one caller. `token`: undefined = no Authorization header, null = malformed. */
  async load(id: string, token: string | null | undefined): Promise<LoadedMatch> {
    const { row, version, state, sandbox } = await this.loader.current(id);
    const seat = this.seatOf(row, token);
    return { row, version, state, viewer: seat ?? 'spectator', seat, sandbox };
  }

  matchView(m: LoadedMatch): MatchView {
    const status: MatchStatus = m.state ? (m.state.result ? 'finished' : m.row.status === 'waiting' ? 'waiting' : 'active') : 'waiting';
    return {
      id: m.row.id,
      version: m.version,
      status,
      winner: m.state?.result?.winner ?? null,
      seat: m.seat,
      seats: (['p1', 'p2'] as const).map((s) => {
        const r = m.row.seats.find((x) => x.seat === s);
        return { seat: s, handle: r?.handle ?? null, joined: !!r?.tokenHash };
      }),
      sandbox: m.sandbox,
      engineVersion: m.row.engineVersion,
      rulesHash: m.row.rulesHash,
      cardSetId: m.row.cardSetId,
      createdAt: m.row.createdAt.toISOString(),
      game: m.state ? view(m.state, m.viewer) : null,
    };
  }

  legal(m: LoadedMatch, opts: { text: boolean } = { text: true }): LegalActionDto[] {
    if (!m.state || !m.seat || m.state.result || m.row.status === 'waiting') return [];
    const state = m.state;
    const actions = legalActions(state, m.seat);
    if (!opts.text) return actions.map((action) => ({ action }));
    // Named only as far as this seat's own view names the cards (describe.ts).
    const describe = actionDescriber(state, m.viewer);
    return actions.map((action) => ({ action, text: describe(action) }));
  }

  redact(e: StoredEvent | { seq: number; type: string; payload: unknown; actingSeat: Seat | null }, viewer: Viewer): EventDto | null {
    if (e.type === MATCH_OPENED) return null;
    const r = redactEvent(e.payload as GameEvent, viewer);
    if (r === null || r === undefined) return null;
    return { seq: e.seq, actingSeat: (e.actingSeat as Seat | null) ?? null, event: r as EventDto['event'] };
  }

  /** Events after `after`, redacted for the viewer. `next` is the seq to pass as `after` next time. */
  async events(m: LoadedMatch, after: number, limit: number): Promise<{ events: EventDto[]; next: number; hasMore: boolean }> {
    const stored = await this.store.loadEvents(m.row.id, { afterSeq: after, limit: limit + 1 });
    const hasMore = stored.length > limit;
    const page = stored.slice(0, limit);
    const events: EventDto[] = [];
    for (const e of page) {
      const d = this.redact(e, m.viewer);
      if (d) events.push(d);
    }
    return { events, next: page.at(-1)?.seq ?? after, hasMore };
  }

  // ---------------------------------------------------------------- the move path

  requestHash(seat: Seat, action: Action): string {
    return sha256Hex(canonicalJson({ seat, action }));
  }

  /**
   * Applies one action for the seat holding `token`. Returns the exact response body so that a
   * retry with the same Idempotency-Key can be answered with the same bytes.
   */
  async submitAction(
    id: string,
    token: string | null | undefined,
    action: Action,
    opts: { idempotencyKey?: string | undefined; expectedVersion?: number | undefined },
  ): Promise<ActionOutcome> {
    if (token === undefined) throw problems.missingToken();
    // The move path starts from the cached entry without reading the database: the append
    // carries the expected version, so the database still decides. If anything fails on a
    // cached entry (it may be stale), the match is reloaded and the action tried once more.
    const cached = this.loader.peek(id);
    if (cached && !(opts.expectedVersion !== undefined && opts.expectedVersion > cached.version)) {
      try {
        return await this.tryAction(cached, token, action, opts);
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
      }
    }
    return this.tryAction(await this.loader.current(id), token, action, opts);
  }

  private async tryAction(
    entry: MatchEntry,
    token: string | null,
    action: Action,
    opts: { idempotencyKey?: string | undefined; expectedVersion?: number | undefined },
  ): Promise<ActionOutcome> {
    const { row, version, state } = entry;
    const id = row.id;
    const seat = this.seatOf(row, token);
    if (!seat) throw problems.missingToken();
    const key = opts.idempotencyKey;
    // Only a request with a key is ever compared with an earlier one.
    const requestHash = key === undefined ? '' : this.requestHash(seat, action);
    // A retry is recognised without a lookup on the way in: a request that would fail now (the
    // match moved on, the action is no longer legal) first checks for a stored answer to its
    // key, and a retry that would apply again is stopped by the key's UNIQUE constraint in the
    // append's own transaction. One round trip saved on every move.
    const priorOr = async (failure: Error): Promise<ActionOutcome> => {
      if (key !== undefined) {
        const prior = await this.replayIdempotent(id, key, seat, requestHash);
        if (prior) return prior;
      }
      throw failure;
    };

    if (opts.expectedVersion !== undefined && opts.expectedVersion !== version) {
      return priorOr(problems.versionConflict(version, `If-Match/expectedVersion is ${opts.expectedVersion} but the match is at version ${version}.`));
    }
    if (!state || row.status === 'waiting') return priorOr(problems.notActive('waiting', version));
    if (state.result) return priorOr(problems.notActive('finished', version));

    const r = apply(state, seat, action);
    if (!r.ok) return priorOr(problems.illegal(r.error.code, r.error.message, version));

    const newEvents = r.events.map((e) => toNewEvent(e, seat));
    const newVersion = version + newEvents.length;
    const result = r.state.result;
    const status: MatchStatus = result ? 'finished' : 'active';
    const toMove = toMoveOf(r.state);
    const m: LoadedMatch = {
      row: { ...row, status, winner: result?.winner ?? null, version: newVersion, toMove },
      version: newVersion,
      state: r.state,
      viewer: seat,
      seat,
      sandbox: entry.sandbox,
    };
    const events: EventDto[] = [];
    newEvents.forEach((e, i) => {
      const d = this.redact({ seq: version + 1 + i, type: e.type, payload: e.payload, actingSeat: seat }, seat);
      if (d) events.push(d);
    });
    const payload: ActionResult = { version: newVersion, events, match: this.matchView(m) };
    const body = JSON.stringify(payload);

    try {
      const stored = await this.store.appendEvents(id, version, newEvents, {
        status,
        winner: result?.winner ?? null,
        toMove,
        ...(key !== undefined ? { idempotency: { key, seat, requestHash, statusCode: 200, response: body } } : {}),
      });
      if (stored !== newVersion) {
        // The store numbers events itself; it must agree with the body we stored.
        throw new Error(`store returned version ${stored}, expected ${newVersion}`);
      }
    } catch (e) {
      // A concurrent request (or an earlier one) with the same key may be the one that won.
      if (e instanceof VersionConflictError) return priorOr(problems.versionConflict(e.currentVersion));
      throw e;
    }
    this.loader.remember({ row: m.row, version: newVersion, state: r.state, sandbox: entry.sandbox });
    return { statusCode: 200, body, version: newVersion, seat, replayed: false };
  }

  private async replayIdempotent(id: string, key: string, seat: Seat, requestHash: string): Promise<ActionOutcome | null> {
    const prior = await this.store.findIdempotency(id, seat, key);
    if (!prior) return null;
    if (prior.requestHash !== requestHash) throw problems.idempotencyMismatch();
    const body = prior.response;
    const version = (JSON.parse(body) as { version: number }).version;
    return { statusCode: prior.statusCode, body, version, seat, replayed: true };
  }

  // ---------------------------------------------------------------- history

  listMatches(filter: MatchListFilterInput, cursor: string | undefined, limit: number): Promise<MatchPageDto> {
    return listMatches(this.store, filter, cursor, limit);
  }

  /** Matches of the holder of a seat token: every match of that seat's handle, or just that match. */
  myMatches(q: MyMatchesQuery): Promise<MatchPageDto> {
    return myMatches(this.store, q);
  }
}

function toNewEvent(e: GameEvent, actingSeat: Seat | null): NewEvent {
  return { type: e.type, payload: e, visibility: eventVisibility(e), actingSeat };
}

/** Whose decision the game waits for, kept on the match row for "my turn" lists. */
function toMoveOf(state: GameState): Seat | null {
  return pendingDecision(state)?.seat ?? null;
}
