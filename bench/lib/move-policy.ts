/**
 * How the load generators (bench:api, bench:peers) choose moves, so that both play the same
 * kind of match: a uniformly random legal action, except that a chain of more than CHAIN_LIMIT
 * ability actions in a row is ended (the view does not expose the chain stack, so the player
 * counts them) and a match past MAX_ACTIONS_PER_MATCH actions is resigned (bounds a
 * pathological game).
 */
export const CHAIN_LIMIT = 30;
export const MAX_ACTIONS_PER_MATCH = 3_000;

/** The report's counters the policy adds to. */
export interface PolicyCounts {
  matchesResigned: number;
  chainBreaks: number;
}

/** One seat pair's player for one match. */
export class BenchPlayer {
  private sent = 0;
  private abilitiesInRow = 0;

  constructor(
    private readonly pick: (n: number) => number,
    private readonly counts: PolicyCounts,
  ) {}

  /** The option to send among `options` (not empty), or null to resign; counts it as sent. */
  choose<T>(options: readonly T[], typeOf: (o: T) => string): T | null {
    let choice: T | null;
    if (this.sent >= MAX_ACTIONS_PER_MATCH) {
      choice = null;
      this.counts.matchesResigned++;
    } else {
      const endPhase = this.abilitiesInRow > CHAIN_LIMIT ? options.find((o) => typeOf(o) === 'end-phase') : undefined;
      if (endPhase !== undefined) this.counts.chainBreaks++;
      choice = endPhase ?? options[this.pick(options.length)]!;
    }
    this.sent++;
    return choice;
  }

  /** An action of this type was accepted: a play, a pass or an end-phase ends the chain count. */
  accepted(type: string): void {
    if (type === 'ability') this.abilitiesInRow++;
    else if (type === 'play' || type === 'pass' || type === 'end-phase') this.abilitiesInRow = 0;
  }
}
