/**
 * `match-replay/1`: one finished (or running) match as a self-contained file, the same format for
 * every hosted game (the game id is inside). Written for one reader (a seat or a spectator): its
 * events are exactly what that reader may see. Once the match is over the file also carries what
 * makes it checkable by anyone (docs/replay-format.md): the seed, the deck lists (or the sandbox
 * position) and the seats' actions, so a verifier can deal again, play the actions again and
 * compare every event it produces with the file's.
 */
import { z } from 'zod';
import { TimeControlSchema } from '../core/clock.js';

export const REPLAY_FORMAT = 'match-replay/1';

const SeatSchema = z.enum(['p1', 'p2']);
const HexSha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in lowercase hex');
const IsoTime = z.iso.datetime({ offset: true });

export const ReplayEventSchema = z.strictObject({
  seq: z.number().int().min(1),
  /** The seat whose action produced the event; null for the deal and the match's own records. */
  actingSeat: SeatSchema.nullable(),
  /**
   * game: the game's own event; match: a record of the match itself (its clock, an ending outside
   * the game's rules). Absent in files written before the envelope: their match records are the
   * events named ClockSet and MatchEnded (recordOf).
   */
  source: z.enum(['game', 'match']).optional(),
  /** The event as the file's reader may see it (game events redacted by the game's own rules). */
  event: z.looseObject({ type: z.string().min(1) }),
});
export type ReplayEvent = z.infer<typeof ReplayEventSchema>;

/** Files written before the envelope named the match's public records so. */
const LEGACY_RECORDS: ReadonlySet<string> = new Set(['ClockSet', 'MatchEnded']);

/** Whether a file's event is a record of the match itself (not the game's). */
export function isFileRecord(e: ReplayEvent): boolean {
  return e.source === undefined ? LEGACY_RECORDS.has(e.event.type) : e.source === 'match';
}

export const ReplayActionSchema = z.strictObject({
  seat: SeatSchema,
  /** As the seat sent it; the game's action schema checks it when the verifier applies it. */
  action: z.looseObject({ type: z.string().min(1) }),
});
export type ReplayAction = z.infer<typeof ReplayActionSchema>;

export const ReplayOutcomeSchema = z.strictObject({
  /** Null for a draw or an abort. */
  winner: SeatSchema.nullable(),
  /** The game's reason (Evons `main-zone-full`, UniVersus `HEALTH_ZERO` …), or `timed-out` / `aborted`. */
  reason: z.string().min(1),
  /** The seat that ran out of time or asked to abort. */
  seat: SeatSchema.nullable().optional(),
});
export type ReplayOutcome = z.infer<typeof ReplayOutcomeSchema>;

export const ReplayFileSchema = z
  .strictObject({
    format: z.literal(REPLAY_FORMAT),
    /** The hosted game's id (`evons`, `universus`). */
    game: z.string().min(1),
    rulesVersion: z.string().min(1),
    engineVersion: z.string().min(1),
    rulesHash: HexSha256,
    /** The game's settings (its config, defaults filled in). */
    settings: z.unknown(),
    timeControl: TimeControlSchema,
    cardSet: z.strictObject({ id: z.string().min(1), hash: HexSha256 }),
    players: z.array(z.strictObject({ seat: SeatSchema, handle: z.string().nullable(), verified: z.boolean() })).length(2),
    createdAt: IsoTime,
    /** Null while the match runs. */
    finishedAt: IsoTime.nullable(),
    outcome: ReplayOutcomeSchema.nullable(),
    /** sha256 (hex) of the seed, public from the start. */
    seedCommitment: HexSha256,
    /** Null until the match is over. */
    seed: z.string().min(1).nullable(),
    /** Card ids per seat, one per copy, as dealt: null until the match is over (they are secret) and for a sandbox. */
    decks: z.strictObject({ p1: z.array(z.string().min(1)), p2: z.array(z.string().min(1)) }).nullable(),
    /** A sandbox match's starting position in the game's own format: null until the end and for a deal. */
    position: z.unknown().optional(),
    /** Every accepted action in order: null until the match is over (they would tell a seat's plans). */
    actions: z.array(ReplayActionSchema).nullable(),
    /** Whom the events are redacted for. */
    reader: z.enum(['spectator', 'p1', 'p2']),
    events: z.array(ReplayEventSchema),
  })
  .superRefine((f, ctx) => {
    const over = f.outcome !== null;
    const secrets: Array<[string, boolean]> = [
      ['seed', f.seed !== null],
      ['decks', f.decks !== null],
      ['actions', f.actions !== null],
      ['position', f.position !== undefined && f.position !== null],
    ];
    if (!over)
      for (const [k, present] of secrets)
        if (present) ctx.addIssue({ code: 'custom', path: [k], message: `${k} is published only once the match is over` });
    if (over && f.finishedAt === null) ctx.addIssue({ code: 'custom', path: ['finishedAt'], message: 'a finished match has a finishedAt' });
    const seqs = f.events.map((e) => e.seq);
    if (seqs.some((s, i) => i > 0 && s <= (seqs[i - 1] as number)))
      ctx.addIssue({ code: 'custom', path: ['events'], message: 'seqs must increase' });
  });
export type ReplayFile = z.infer<typeof ReplayFileSchema>;
