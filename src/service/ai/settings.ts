/** How a node plays the computer's seats (AI_WORKERS, AI_LEASE_SECONDS, AI_MAX_ATTEMPTS, AI_MAX_HEAP_MB). */
export interface AiSettings {
  /** Child processes deciding at once on this node (0: none here; other nodes play). */
  workers: number;
  /** A claim's lease: longer than the longest decision's limit. */
  leaseMs: number;
  /** Claims of one decision before the computer resigns instead. */
  maxAttempts: number;
  /** Each worker's heap cap (MB). */
  maxHeapMb: number;
  /** The module that decides (default: the computer players); tests name their own. */
  deciderUrl?: string;
  /** A decision's limit in ms (default: by level, limitForLevel); past it the worker is replaced. */
  limitMs?: number;
  /** A look for due decisions this often besides the appends' notifications (default 1 s). */
  pollMs?: number;
  /** Decisions of one owner (a player, an anonymous address) in flight at once over all nodes; the rest wait their turn. */
  jobsPerAccount: number;
  /**
   * The worker processes' nice value (0-19): a
   * search's CPU yields to the thread that serves requests, so a flood of decisions slows the
   * decisions, not every reader and mover (docs/operations.md, Isolation). Above 0 the workers
   * also run under SCHED_IDLE where Linux and chrt allow it (./worker.ts).
   */
  nice: number;
}

export const DEFAULT_AI_SETTINGS: AiSettings = { workers: 1, leaseMs: 60_000, maxAttempts: 2, maxHeapMb: 512, jobsPerAccount: 2, nice: 10 };

/** The hang guard per level: far above what the level's search budget takes on these machines. */
export function limitForLevel(level: number): number {
  return 10_000 + 2_500 * level;
}
