/**
 * Live updates: one store subscription per process (LISTEN/NOTIFY under the hood), fanned out to
 * whoever watches a match (the NDJSON event streams). Appends made on any node sharing the
 * database arrive here, so a stream on one node sees moves submitted to another.
 */
import { EventEmitter } from 'node:events';
import type { MatchStore } from '../persistence/types.js';

export class LiveUpdates {
  private readonly emitter = new EventEmitter();
  private started: Promise<() => Promise<void>> | null = null;

  constructor(private readonly store: MatchStore) {
    // One listener per open stream; many streams may watch one match.
    this.emitter.setMaxListeners(0);
  }

  /** Calls `onAppend(version)` after each committed append to the match; returns the unwatch function. */
  async watch(matchId: string, onAppend: (version: number) => void): Promise<() => void> {
    this.started ??= this.store.watchAppends((id, version) => this.emitter.emit(id, version));
    await this.started;
    this.emitter.on(matchId, onAppend);
    return () => {
      this.emitter.off(matchId, onAppend);
    };
  }

  async close(): Promise<void> {
    const started = this.started;
    this.started = null;
    if (started) await (await started.catch(() => async () => {}))();
  }
}
