/**
 * Whose decision it is after each committed append, on any node (LiveUpdates.watchAll: the same
 * PostgreSQL notifications as the event streams), for GraphQL `myTurn`. One row read per append,
 * however many watch; each watcher decides from the row (its seats and `toMove`) whether the append
 * concerns it, and reads the match itself, with its own credential, only then.
 */
import type { MatchRow } from '../persistence/types.js';
import type { MatchService } from './match-service.js';

export interface TurnWatcher {
  /** A match after an append (the row as read after the notification: it may already be newer). */
  appended(row: MatchRow): void;
  /** Notifications may have been missed (the LISTEN connection came back): look again. */
  catchUp(): void;
}

export class TurnFeed {
  private readonly watchers = new Set<TurnWatcher>();
  private started: Promise<void> | null = null;

  constructor(private readonly service: MatchService) {}

  /** Starts telling `w`; resolves once watching. Returns the unwatch function. */
  async watch(w: TurnWatcher): Promise<() => void> {
    this.started ??= this.service.live.watchAll((id) => void this.onAppend(id)).then(
      () => undefined,
      (err: unknown) => {
        this.started = null; // the next watcher tries again
        throw err;
      },
    );
    await this.started;
    this.watchers.add(w);
    return () => this.watchers.delete(w);
  }

  private async onAppend(id: string | null): Promise<void> {
    if (this.watchers.size === 0) return;
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
