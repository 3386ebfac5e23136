/**
 * Live updates: one store subscription per process (LISTEN/NOTIFY under the hood), fanned out to
 * whoever watches a match (the event streams, NDJSON and SSE, and GraphQL subscriptions). Appends made on any node sharing the
 * database arrive here, so a stream on one node sees moves submitted to another.
 *
 * The subscription re-establishes itself after a database restart; while it is down, appends are
 * not notified, so when it comes back every watcher is told to catch up from the store.
 */
import { EventEmitter } from 'node:events';
import type { MatchStore } from '../../persistence/types.js';

/** 'idle': nobody has watched yet (no subscription); 'down': broken, being re-established. */
export type LiveState = 'idle' | 'up' | 'down';

const CATCH_UP = Symbol('catch-up');
/** Event names of revocations: a token's sha256 behind a prefix no match id has (ids have no NUL). */
const revokedEvent = (tokenHash: string) => `\0revoked\0${tokenHash}`;
/** Every append, whatever the match (GraphQL `myTurn`). */
const ANY = Symbol('any');
/** Account feed entries written outside an append (the account feeds read on this and on every append). */
const FEED = Symbol('feed');

export class LiveUpdates {
  private readonly emitter = new EventEmitter();
  private started: Promise<() => Promise<void>> | null = null;
  private current: LiveState = 'idle';
  /** When the subscription last went down (ms since epoch), for logs. */
  downSince: number | null = null;

  /** Where state changes are logged (the app sets its logger). */
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void } | undefined;

  constructor(private readonly store: MatchStore) {
    // One listener per open stream; many streams may watch one match.
    this.emitter.setMaxListeners(0);
  }

  get state(): LiveState {
    return this.current;
  }

  private onState(next: 'up' | 'down'): void {
    const before = this.current;
    this.current = next;
    if (next === 'down' && before !== 'down') {
      this.downSince = Date.now();
      this.log?.warn({}, 'live updates: LISTEN connection lost; reconnecting');
    } else if (next === 'up' && before === 'down') {
      this.log?.info(
        { downMs: Date.now() - (this.downSince ?? Date.now()) },
        'live updates: LISTEN connection re-established; catching up',
      );
      this.downSince = null;
      this.emitter.emit(CATCH_UP);
    }
  }

  /** The store subscription, made by the first watcher. */
  private subscribe(): Promise<() => Promise<void>> {
    this.started ??= this.store.watchAppends(
      (id, version) => {
        this.emitter.emit(id, version);
        this.emitter.emit(ANY, id, version);
      },
      (s) => this.onState(s),
      (tokenHash) => this.emitter.emit(revokedEvent(tokenHash)),
      () => this.emitter.emit(FEED),
    );
    return this.started;
  }

  /**
   * Calls `onAppend(version)` after each committed append to the match, and `onAppend(undefined)`
   * when notifications may have been missed (catch up from the store); returns the unwatch function.
   */
  async watch(matchId: string, onAppend: (version: number | undefined) => void): Promise<() => void> {
    await this.subscribe();
    const catchUp = () => onAppend(undefined);
    this.emitter.on(matchId, onAppend);
    this.emitter.on(CATCH_UP, catchUp);
    return () => {
      this.emitter.off(matchId, onAppend);
      this.emitter.off(CATCH_UP, catchUp);
    };
  }

  /**
   * Like watch, for every match: `onAppend(matchId, version)` after each committed append, and
   * `onAppend(null, undefined)` when notifications may have been missed.
   */
  async watchAll(onAppend: (matchId: string | null, version: number | undefined) => void): Promise<() => void> {
    await this.subscribe();
    const catchUp = () => onAppend(null, undefined);
    this.emitter.on(ANY, onAppend);
    this.emitter.on(CATCH_UP, catchUp);
    return () => {
      this.emitter.off(ANY, onAppend);
      this.emitter.off(CATCH_UP, catchUp);
    };
  }

  /**
   * Calls `onChange()` whenever account feed entries may have been written on any node: after each
   * committed append, each challenge, seek or match change announced, and after a missed-notification
   * catch-up. Returns the unwatch function.
   */
  async watchFeed(onChange: () => void): Promise<() => void> {
    await this.subscribe();
    this.emitter.on(ANY, onChange);
    this.emitter.on(FEED, onChange);
    this.emitter.on(CATCH_UP, onChange);
    return () => {
      this.emitter.off(ANY, onChange);
      this.emitter.off(FEED, onChange);
      this.emitter.off(CATCH_UP, onChange);
    };
  }

  /**
   * Calls `onRevoked()` when the token with this sha256 is revoked on any node (the watcher then
   * checks its token, and ends with invalid-token); returns the unwatch function. A revocation
   * announced while the subscription was down is not replayed: the heartbeat's check finds it.
   */
  async watchRevoked(tokenHash: string, onRevoked: () => void): Promise<() => void> {
    await this.subscribe();
    const name = revokedEvent(tokenHash);
    this.emitter.on(name, onRevoked);
    return () => this.emitter.off(name, onRevoked);
  }

  async close(): Promise<void> {
    const started = this.started;
    this.started = null;
    this.current = 'idle';
    if (started) await (await started.catch(() => async () => {}))();
  }
}
