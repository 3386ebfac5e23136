/**
 * Whose decision it is after each committed append, on any node (LiveUpdates.watchAll: the same
 * PostgreSQL notifications as the event streams), for GraphQL `myTurn`. One row read per append,
 * however many watch; each watcher decides from the row (its seats and `toMove`) whether the append
 * concerns it, and reads the match itself, with its own credential, only then.
 */
import type { MatchRow } from '../../persistence/types.js';
import type { MatchService } from '../match/match-service.js';

export interface TurnWatcher {
  /** The one match this watcher cares about (a seat token's); absent: any match (a player's). */
  readonly matchId?: string;
  /** A match after an append (the row as read after the notification: it may already be newer). */
  appended(row: MatchRow): void;
  /** Notifications may have been missed (the LISTEN connection came back): look again. */
  catchUp(): void;
}

export class TurnFeed {
  private readonly watchers = new Set<TurnWatcher>();
  /** Watchers per named match, and how many watch any match. */
  private readonly byMatch = new Map<string, number>();
  private anyMatch = 0;
  private started: Promise<void> | null = null;

  constructor(private readonly service: MatchService) {}

  /** Starts telling `w`; resolves once watching. Returns the unwatch function. */
  async watch(w: TurnWatcher): Promise<() => void> {
    this.started ??= this.service.live
      .watchAll((id) => void this.onAppend(id))
      .then(
        () => undefined,
        (err: unknown) => {
          this.started = null; // the next watcher tries again
          throw err;
        },
      );
    await this.started;
    this.watchers.add(w);
    if (w.matchId === undefined) this.anyMatch++;
    else this.byMatch.set(w.matchId, (this.byMatch.get(w.matchId) ?? 0) + 1);
    return () => {
      if (!this.watchers.delete(w)) return;
      if (w.matchId === undefined) this.anyMatch--;
      else {
        const n = (this.byMatch.get(w.matchId) ?? 1) - 1;
        if (n > 0) this.byMatch.set(w.matchId, n);
        else this.byMatch.delete(w.matchId);
      }
    };
  }

  private async onAppend(id: string | null): Promise<void> {
    if (this.watchers.size === 0) return;
    // Seat tokens name one match each: an append elsewhere is nobody's business, not even a read.
    if (id !== null && this.anyMatch === 0 && !this.byMatch.has(id)) return;
    let row: MatchRow | null;
    try {
      row = id === null ? null : await this.service.store.getMatch(id);
    } catch {
      row = null; // the database did not answer: have everyone look again (their reads report the error)
      id = null;
    }
    for (const w of [...this.watchers]) {
      if (id === null) w.catchUp();
      else if (row) w.appended(row);
    }
  }
}
