/**
 * The match's own public records (match-log.ts) as clients see them, as Zod schemas for the
 * OpenAPI document and the contract tests. MatchOpened is server-only and never shown.
 */
import { z } from 'zod';
import { TimeControlSchema } from '../../core/clock.js';
import type { Clock } from '../../core/clock.js';
import type { MatchEnd } from './match-log.js';

const Seat = z.enum(['p1', 'p2']);
const EpochMs = z.number().int().describe('Epoch milliseconds.');

const ClockSchema = z.strictObject({
  control: z
    .discriminatedUnion('kind', [TimeControlSchema.options[1], TimeControlSchema.options[2]])
    .describe('The time control: correspondence or live (a match without a clock has no ClockSet).'),
  remainingMs: z
    .strictObject({ p1: z.number().int(), p2: z.number().int() })
    .describe('Time left per seat when `running` started (live), or the full period (correspondence).'),
  running: z
    .strictObject({ seat: Seat, since: EpochMs })
    .nullable()
    .describe("Whose time is running, since when; null when nobody's (the game is over)."),
});

const MatchEndSchema = z.strictObject({
  reason: z.enum(['timed-out', 'resigned', 'aborted']),
  seat: Seat.nullable().describe(
    'timed-out: who ran out of time; resigned: who conceded (games without a resign of their own); aborted: who asked (null: nobody made a first decision in time).',
  ),
  winner: Seat.nullable(),
  at: EpochMs,
});

export const MatchRecordSchema = z
  .discriminatedUnion('type', [
    z
      .strictObject({ type: z.literal('ClockSet'), at: EpochMs.describe('When the clock changed.'), clock: ClockSchema })
      .meta({ id: 'MatchClockSet', description: 'The clock after a change (time controls).' }),
    z.strictObject({ type: z.literal('MatchEnded'), end: MatchEndSchema }).meta({
      id: 'MatchEnded',
      description:
        "The match ended outside its game's rules: a seat ran out of time, conceded (in a game without a resign of its own), or it was aborted.",
    }),
    z
      .strictObject({
        type: z.literal('RematchOffered'),
        by: Seat,
        at: EpochMs,
        expiresAt: EpochMs.describe('The offer is expired from then on unless answered.'),
      })
      .meta({ id: 'RematchOffered', description: 'A seat of this finished match offered a rematch.' }),
    z
      .strictObject({ type: z.literal('RematchDeclined'), by: Seat, at: EpochMs })
      .meta({ id: 'RematchDeclined', description: 'The other seat declined the rematch.' }),
    z
      .strictObject({
        type: z.literal('RematchAccepted'),
        by: Seat,
        at: EpochMs,
        matchId: z.string().describe('The new match (seats swapped).'),
      })
      .meta({ id: 'RematchAccepted', description: 'The other seat accepted: the rematch started.' }),
    z
      .strictObject({ type: z.literal('RematchOf'), matchId: z.string().describe('The finished match this one is the rematch of.') })
      .meta({ id: 'RematchOf', description: 'This match is a rematch.' }),
  ])
  .meta({ id: 'MatchRecord', description: "A record of the match itself, in every game (not the game's own event)." });

// The schemas follow the service's own types.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const clockSchemaMatches: Same<z.infer<typeof ClockSchema>, Clock> = true;
export const endSchemaMatches: Same<z.infer<typeof MatchEndSchema>, MatchEnd> = true;
