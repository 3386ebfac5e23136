/**
 * The requests both APIs take, as the Zod schemas both validate them with: REST's bodies and
 * queries (src/http/schemas.ts lists them among its own for the OpenAPI document) and the GraphQL
 * inputs and arguments that stand for them, checked by the same schema so that both accept and
 * refuse alike. Request objects are strict: unknown fields are refused.
 */
import { z } from 'zod';
import { register } from './register.js';
import { TimeControlSchema } from '../core/clock.js';
import { SeatSchema } from '../core/seat-schema.js';
import type { AnyGameModule } from '../games/game-module.js';
import { GAME_IDS, GAME_LIST } from '../games/registry.js';
import { FEED_KINDS, WEBHOOK_KINDS } from './kinds.js';
import { CURSOR_PATTERN, HandleSchema } from './ids.js';
import { MatchStatusSchema } from './match-view.js';

/**
 * One schema per hosted game, in registry order, as the non-empty tuple Zod's unions take: every
 * union of game-specific shapes (here and in REST's answers) is assembled from the registry,
 * never written per game.
 */
export function perGame<T>(piece: (m: AnyGameModule, index: number) => T): [T, T, ...T[]] {
  const out = GAME_LIST.map(piece);
  if (out.length < 2) throw new Error('the registry lists fewer than two games');
  return out as [T, T, ...T[]];
}

export { MatchStatusSchema };

export const GameIdSchema = register(z.enum(GAME_IDS as [string, ...string[]]), 'GameId', 'A hosted game (GET /v1/games).');

export const WebhookKindSchema = register(
  z.enum(WEBHOOK_KINDS),
  'WebhookKind',
  'your-turn: the decision passed to your seat. opponent-joined: someone took the open seat. match-ended: the match is over. ' +
    'deadline-near: your running clock ends within the lead you chose.',
);

export const WebhookRequestSchema = register(
  z.strictObject({
    url: z
      .string()
      .min(1)
      .max(2048)
      .meta({ format: 'uri' })
      .describe('http(s) URL. In production it must resolve to public addresses (checked when each delivery connects).'),
    events: z.array(WebhookKindSchema).min(1).max(4),
    deadlineLeadMinutes: z
      .number()
      .int()
      .min(1)
      .max(20_160)
      .optional()
      .describe('deadline-near fires this long before a deadline (default 720: 12 h).'),
  }),
  'WebhookRequest',
  "A seat's endpoint for Standard Webhooks deliveries.",
);

export const AccountWebhookKindSchema = register(
  z.enum(FEED_KINDS),
  'AccountWebhookKind',
  'A kind of account feed entry (FeedEntry): match-started, your-turn, match-ended, challenge-received, challenge-accepted, ' +
    'challenge-declined, challenge-canceled, challenge-expired, rematch-offered, seek-paired.',
);

export const AccountWebhookRequestSchema = register(
  z.strictObject({
    url: z
      .string()
      .min(1)
      .max(2048)
      .meta({ format: 'uri' })
      .describe('http(s) URL. In production it must resolve to public addresses (checked when each delivery connects).'),
    events: z
      .array(AccountWebhookKindSchema)
      .min(1)
      .max(FEED_KINDS.length * 2)
      .optional()
      .describe('The kinds of entry to deliver (default: every kind there is now; the list is kept as registered).'),
  }),
  'AccountWebhookRequest',
  "A player's endpoint for Standard Webhooks deliveries of their account feed: every match and challenge of theirs, present and future.",
);

// ------------------------------------------------------------------ decks and create/join

type JsonObject = Record<string, unknown>;

/** A game's settings schema as plain JSON Schema (its own registered id inlined, not referred to). */
function settingsJson(m: AnyGameModule): JsonObject {
  const { $schema: _s, ...out } = z.toJSONSchema(m.schemas.settings, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  const ref = typeof out.$ref === 'string' ? out.$ref.replace('#/$defs/', '') : undefined;
  const body = ref ? ((out.$defs as Record<string, JsonObject>)[ref] as JsonObject) : out;
  if (JSON.stringify(body).includes('"$ref"')) throw new Error(`${m.ruleset.id}: its settings schema refers to others; inline them here`);
  return body;
}

/**
 * The settings object of some hosted game, as sent (a challenge's `game` picks which one applies,
 * later): refused when no game's settings schema accepts it (an unknown key, a value out of range),
 * documented as the anyOf of those schemas. Not a Zod union, which would fill in the first
 * game's defaults.
 */
const AnyGameSettings = z
  .record(z.string(), z.unknown())
  .refine((v) => GAME_LIST.some((m) => m.schemas.settings.safeParse(v).success), {
    message: "not the settings of any hosted game (an unknown key, or a value out of range): see the game's settings",
  })
  .meta({ anyOf: GAME_LIST.map(settingsJson) });

/** Every hosted game's starter deck ids, in registry order (the document's enum for `starter`). */
const STARTER_DECK_IDS = [...new Set(GAME_LIST.flatMap((m) => m.ruleset.starterDecks.map((d) => d.id)))];

const CardIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'a card definition id');

export const DeckSpecSchema = register(
  z.union([
    z.strictObject({
      // Documented as the enum of the hosted games' starter decks; another string is the game's 422 invalid-deck.
      starter: CardIdSchema.meta({ enum: STARTER_DECK_IDS }).describe('A starter deck id from GET /v1/games/{game}/decks.'),
    }),
    z.strictObject({
      cards: z
        .array(z.strictObject({ card: CardIdSchema, count: z.number().int().min(1).max(200) }))
        .min(1)
        .max(200)
        .describe("An explicit list; the game's deck rules apply (Evons: exactly 60 cards, at most 4 copies of a monster)."),
    }),
  ]),
  'DeckSpec',
  'A deck: a starter deck id, or an explicit list of card ids (GET /v1/games/{game}/cards) with counts.',
);

const createCommon = {
  handle: HandleSchema.optional().describe("The creator's handle."),
  seat: SeatSchema.optional().describe("The creator's seat (default p1). Who moves first is a rules setting."),
  openSeat: z
    .boolean()
    .optional()
    .describe(
      'true: the other seat stays open for someone to join (POST /v1/matches/{id}/join). ' +
        'false (default): both seats are created now and both tokens returned (hot-seat or bot play).',
    ),
  opponentHandle: HandleSchema.optional().describe('Handle of the other seat when openSeat is false.'),
  ai: z
    .strictObject({ level: z.number().int().min(1).max(8).describe('1 (weakest) to 8 (strongest).') })
    .optional()
    .describe(
      'Play the computer: the other seat is the computer player ai-level-<level> (a verified bot), which the server plays. ' +
        "Its deck: decks.<its seat>, else the game's first starter deck. No token is issued for it. Not with openSeat, opponentHandle or a position.",
    ),
  decks: z
    .strictObject({ p1: DeckSpecSchema.optional(), p2: DeckSpecSchema.optional() })
    .optional()
    .describe("Decks by seat. The creator's deck is required; the other seat's too unless openSeat."),
  timeControl: TimeControlSchema.optional().describe(
    'The clock (default none): correspondence (days per decision) or live (Fischer). Pinned in the rules hash; the clock starts at the deal.',
  ),
  webhook: WebhookRequestSchema.optional().describe(
    "The creator's webhook endpoint, registered with the match (its secret comes back once).",
  ),
  rated: z
    .boolean()
    .optional()
    .describe(
      "Rated (default false): the end updates both players' Glicko-2 ratings (this game, this time control's family). " +
        'Needs a player token, openSeat true (the opponent joins with their own player token) and a correspondence or live time control; never a sandbox.',
    ),
};

/**
 * One create body per game: `game` says which (optional for the registry's first game, the
 * default), and `settings` and `position` are that game's own.
 */
/**
 * What a create body needs beyond its fields, as the service checks it (lobby.ts), for the
 * document only (Zod's own check is the service's, with its messages): a deal needs decks, the
 * creator's at least (seat p1 unless `seat` says p2) and both unless the other seat is open or the
 * computer's; a sandbox takes its decks and settings from its position and sends none.
 */
/** `name` present (its schema is the body's own: `{}` here only names it, for the document's linters). */
const has = (...names: string[]) => ({ required: names, properties: Object.fromEntries(names.map((n) => [n, {}])) });

const CREATE_NEEDS = {
  allOf: [
    {
      if: has('position'),
      then: { properties: { decks: { maxProperties: 0 }, settings: { maxProperties: 0 } } },
      else: has('decks'),
    },
    {
      if: { not: has('position') },
      then: {
        if: { ...has('seat'), properties: { seat: { const: 'p2' } } },
        then: { properties: { decks: has('p2') } },
        else: { properties: { decks: has('p1') } },
      },
    },
    {
      if: { not: { anyOf: [has('position'), { ...has('openSeat'), properties: { openSeat: { const: true } } }, has('ai')] } },
      then: { properties: { decks: has('p1', 'p2') } },
    },
  ],
};

const createBodies = perGame((m, i) => {
  const { id, positions } = m.ruleset;
  return register(
    z
      .strictObject({
        game: i === 0 ? z.literal(id).optional().describe(`The game (default ${id}).`) : z.literal(id),
        ...createCommon,
        settings: m.schemas.settings.optional().describe(`${m.displayName} rules settings; every field has a default (${m.docs}).`),
        position: m.schemas.position
          .optional()
          .describe(
            `Sandbox: start from this position (format ${positions.format}, see ${m.docs}) instead of a deal. Send no decks or settings with it.`,
          ),
      })
      .meta(CREATE_NEEDS),
    `${m.typePrefix}CreateMatchRequest`,
  );
});

export const CreateMatchBody = register(
  z.discriminatedUnion('game', createBodies),
  'CreateMatchRequest',
  `A new match of one hosted game (GET /v1/games); without \`game\`, a match of ${GAME_IDS[0]}.`,
);

export const JoinBody = register(
  z.strictObject({
    handle: HandleSchema.optional(),
    deck: DeckSpecSchema.optional().describe('Required unless the match is a sandbox.'),
    webhook: WebhookRequestSchema.optional().describe(
      "Your seat's webhook endpoint, registered with the join (its secret comes back once).",
    ),
  }),
  'JoinMatchRequest',
);

// ------------------------------------------------------------------ actions

export const MatchActionSchema = register(
  z.discriminatedUnion('type', [z.strictObject({ type: z.literal('abort') }), z.strictObject({ type: z.literal('resign') })]),
  'MatchAction',
  'Actions of the match itself, in every game: abort calls the match off (no winner) until both seats have made their first decision, and is how the creator cancels a match whose open seat nobody has joined; ' +
    "resign concedes (the other seat wins), by either seat at any time while the match runs, whoever's decision it is. Neither is listed among legal actions.",
);

/**
 * Any game's decision or the match's own. A union, not split by `type`: each game names its
 * actions freely (two games may both have a `play`), and the match's game decides which of them
 * applies (its engine validates the action).
 */
export const ActionBodySchema = register(
  z.union([...perGame((m) => m.schemas.action), MatchActionSchema]),
  'Action',
  `One decision: an action of the match's game (${GAME_LIST.map((m) => `${m.typePrefix}Action`).join(', ')}) or a MatchAction.`,
);

// ------------------------------------------------------------------ lists

// Years 0001–9999 in UTC: a valid ISO 8601 string can still name year 0 once its offset is
// applied ("0000-02-29T23:38-11:41"), which PostgreSQL's timestamptz refuses with an error.
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const QueryInstant = z.iso.datetime({ offset: true }).refine((v) => {
  const t = Date.parse(v);
  return t >= FIRST_INSTANT && t <= LAST_INSTANT;
}, 'a time between years 0001 and 9999 (UTC)');

export const ListQuery = z.strictObject({
  handle: HandleSchema.optional(),
  status: MatchStatusSchema.optional(),
  game: GameIdSchema.optional(),
  opponent: HandleSchema.optional().describe('With handle: matches against this handle; alone: matches this handle played.'),
  result: z.enum(['won', 'lost', 'drawn']).optional().describe('Finished matches handle won, lost or drew (needs handle).'),
  timeControl: z.enum(['none', 'correspondence', 'live']).optional(),
  rated: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true'))
    .describe('true: rated matches only; false: unrated only.'),
  from: QueryInstant.optional().describe('Created at or after this time (ISO 8601, years 0001–9999 UTC).'),
  to: QueryInstant.optional().describe('Created before this time (ISO 8601, years 0001–9999 UTC).'),
  cursor: z
    .string()
    .regex(CURSOR_PATTERN, 'a nextCursor value from a previous page')
    .optional()
    .describe('nextCursor of the previous page, unchanged.'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

export const FamilySchema = z
  .enum(['correspondence', 'live'])
  .describe('The time-control family a rating counts (each has its own rating).');

export const LeaderboardQuery = z.strictObject({
  game: GameIdSchema.default(GAME_IDS[0]!),
  timeControl: FamilySchema.default('correspondence'),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

// ------------------------------------------------------------------ challenges

export const DeclineReasonSchema = register(
  z.enum(['generic', 'later', 'tooFast', 'tooSlow', 'timeControl', 'rated', 'casual', 'standard', 'variant', 'noBot', 'onlyBot']),
  'DeclineReason',
  "Why a challenge was declined (lichess's reason keys; the challenger's client words them).",
);

export const ChallengeStatusSchema = register(
  z.enum(['open', 'accepted', 'declined', 'canceled', 'expired']),
  'ChallengeStatus',
  'open until exactly one of: accepted (the match started), declined, canceled (by the challenger), expired.',
);

export const CreateChallengeBody = register(
  z.strictObject({
    to: HandleSchema.optional().describe(
      'The challenged player. Without it the challenge is open: anyone (or only `allowed`) may accept it.',
    ),
    allowed: z.array(HandleSchema).max(50).optional().describe('An open challenge only these players may accept.'),
    game: GameIdSchema.optional().describe(`Default ${GAME_IDS[0]}.`),
    timeControl: TimeControlSchema.optional().describe('Default none (no clock).'),
    rated: z.boolean().optional().describe('Default false; a rated challenge needs a time control.'),
    seat: z
      .enum(['p1', 'p2', 'random'])
      .optional()
      .describe("The challenger's seat; random (the default) is drawn when the challenge is accepted."),
    settings: AnyGameSettings.optional().describe(
      "The game's settings: one of the hosted games' settings objects (unknown keys refused, 400), then checked against the challenge's game's own (422 invalid-settings).",
    ),
    deck: DeckSpecSchema.optional().describe("The challenger's deck (default: the game's first starter deck). Never shown to anyone else."),
  }),
  'CreateChallengeRequest',
);

export const AcceptChallengeBody = register(
  z.strictObject({ deck: DeckSpecSchema.describe('Your deck for the match.') }),
  'AcceptChallengeRequest',
);

export const DeclineChallengeBody = register(
  z.strictObject({ reason: DeclineReasonSchema.optional().describe('Default generic.') }),
  'DeclineChallengeRequest',
);

export const ChallengeListQuery = z.strictObject({
  direction: z.enum(['in', 'out']).default('in').describe('in: challenges sent to you by handle; out: yours.'),
  status: ChallengeStatusSchema.optional().describe('Only challenges in this status (default: all, newest first).'),
  cursor: z.string().min(1).max(200).optional().describe('A nextCursor from the previous page, unchanged.'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

// ------------------------------------------------------------------ seeks

const RatingBoundSchema = z.number().int().min(0).max(4000);

export const SeekBody = register(
  z.strictObject({
    game: GameIdSchema.optional().describe(`The game (default ${GAME_IDS[0]}).`),
    timeControl: TimeControlSchema.describe(
      'The clock: correspondence, or live while your account feed is connected (seek-needs-feed otherwise); without one: seek-needs-correspondence.',
    ),
    rated: z.boolean().optional().describe("Rated (default false): pairs only with rated seeks; the end moves both players' ratings."),
    minRating: RatingBoundSchema.optional().describe(
      "The lowest opponent rating (this game, this time control's family) you accept; default: no bound.",
    ),
    maxRating: RatingBoundSchema.optional().describe('The highest opponent rating you accept; default: no bound.'),
    deck: DeckSpecSchema.describe(
      "Your deck, checked now against the game's deck rules (the game's default settings). Never shown to others.",
    ),
  }),
  'SeekRequest',
  "A standing offer to play anyone compatible: same game, time control and rated flag, each player within the other's rating range.",
);

export const SeekListQuery = z.strictObject({
  game: GameIdSchema.optional().describe('Only seeks of this game.'),
  cursor: z.string().min(1).max(200).optional().describe('A nextCursor from the previous page, unchanged.'),
  limit: z.coerce.number().int().min(1).max(100).optional().describe('Seeks per page (default and most: 100).'),
});

// ------------------------------------------------------------------ tournaments

export const TournamentFormatSchema = register(
  z.enum(['swiss', 'round-robin', 'double-round-robin']),
  'TournamentFormat',
  'swiss: `rounds` rounds paired by the Monrad system; round-robin: everyone meets everyone once (Berger tables); double-round-robin: twice, seats swapped.',
);

export const TournamentStatusSchema = register(
  z.enum(['open', 'running', 'finished', 'canceled']),
  'TournamentStatus',
  'open: taking entries; running: rounds are being played; finished: final standings; canceled: by the organizer, or nobody to play at the start.',
);

const FutureTime = z.iso.datetime({ offset: true });

export const CreateTournamentBody = register(
  z.strictObject({
    name: z.string().trim().min(1).max(100),
    game: GameIdSchema.optional().describe(`Default ${GAME_IDS[0]}.`),
    format: TournamentFormatSchema,
    rounds: z.number().int().min(1).max(30).optional().describe('Swiss only, and required there: how many rounds.'),
    timeControl: TimeControlSchema.describe(
      'Every match of the tournament is played with it: correspondence or live (a tournament needs a clock).',
    ),
    rated: z.boolean().optional().describe('Default false: rated tournaments move the ratings of every match.'),
    deckRule: z
      .enum(['starter', 'any'])
      .optional()
      .describe("starter (the default): the game's starter decks only; any: any deck legal in the game."),
    maxPlayers: z
      .number()
      .int()
      .min(2)
      .max(1000)
      .optional()
      .describe("The field's cap (default 64): one more entry is 409 tournament-full."),
    invited: z.array(HandleSchema).max(1000).optional().describe('Only these players may enter (default: anyone).'),
    entryClosesAt: FutureTime.optional().describe('No entries after this time (default: until the start).'),
    startsAt: FutureTime.optional().describe('The first round starts by itself then (default: when the organizer starts it).'),
    roundHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .optional()
      .describe(
        "A round's deadline, in hours from its start: a match still running then ends (the seat to move loses on time; a seat that never moved forfeits). Default: a round lasts until its matches end.",
      ),
  }),
  'CreateTournamentRequest',
);

export const JoinTournamentBody = register(
  z.strictObject({
    deck: DeckSpecSchema.optional().describe(
      "The deck you play every round (default: the game's first starter deck), checked now. Never shown to anyone.",
    ),
  }),
  'JoinTournamentRequest',
);

/** A page of a tournament's standings (REST query, GraphQL arguments). */
export const StandingsPageQuery = z.strictObject({
  cursor: z
    .string()
    .regex(CURSOR_PATTERN, 'a nextCursor value from a previous page')
    .optional()
    .describe('nextCursor of the previous page, unchanged.'),
  limit: z.coerce.number().int().min(1).max(100).default(100).describe('Rows per page (at most 100).'),
});

export const TournamentListQuery = z.strictObject({
  status: TournamentStatusSchema.optional().describe('Only tournaments in this status.'),
  cursor: z.string().min(1).max(200).optional().describe('A nextCursor from the previous page, unchanged.'),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

// ------------------------------------------------------------------ bulk pairings

/** A player token as sent in a body (evp_…): checked by the service, never stored. */
const PlayerTokenField = z.string().min(1).max(200);

export const CreateBulkPairingBody = register(
  z.strictObject({
    pairs: z
      .array(
        z.strictObject({
          p1: PlayerTokenField.describe("The first seat's player token (pairing:play alone)."),
          p2: PlayerTokenField.describe("The second seat's player token (pairing:play alone)."),
        }),
      )
      .min(1)
      .max(200)
      .describe(
        'One match per pair, each player named by a player token with pairing:play and no other scope that they gave you (their consent); no player twice. ' +
          'The tokens are checked now and never stored; each is bound to this pairing, and acts in its matches only.',
      ),
    game: GameIdSchema.optional().describe(`Default ${GAME_IDS[0]}.`),
    timeControl: TimeControlSchema.describe('Correspondence or live: every match is played with it.'),
    rated: z.boolean().optional().describe('Default false.'),
    deck: DeckSpecSchema.optional().describe("The deck every player plays (default: the game's first starter deck). Never shown."),
    pairAt: FutureTime.optional().describe('When the matches are created and their clocks start (default: now).'),
  }),
  'CreateBulkPairingRequest',
);
