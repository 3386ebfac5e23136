/**
 * The match contract is written twice: in Zod (src/contract/, src/http/: REST validates and
 * serialises with it, the OpenAPI document is rendered from it) and in GraphQL's SDL
 * (src/graphql/sdl/). This test keeps the two in agreement: every GraphQL type below (and the
 * arguments of the queries that REST's query schemas check) is compared field by field with its Zod twin (./agreement.ts: names, nullability or optionality, scalar
 * kinds, enum values, nested objects and lists), and every difference is either listed below with
 * its reason or a failure. The games' own types (each Match type's fields, Cell, Card, …) are
 * checked against their engines' views by test/architecture/view-shapes.test.ts and
 * universus-view-shapes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildSchema } from 'graphql';
import { typeDefs } from '../../src/graphql/schema.js';
import { compareType, shapeOf, type Allowances } from './agreement.js';
import { matchViewCommon } from '../../src/contract/match-view.js';
import {
  AccountWebhookRequestSchema,
  ChallengeListQuery,
  CreateBulkPairingBody,
  CreateChallengeBody,
  CreateMatchBody,
  CreateTournamentBody,
  JoinBody,
  LeaderboardQuery,
  ListQuery,
  SeekBody,
  SeekListQuery,
  StandingsPageQuery,
  TournamentListQuery,
  WebhookRequestSchema,
} from '../../src/contract/requests.js';
import {
  CreateMatchResponse,
  EventPageSchema,
  EventSchema,
  JoinResponse,
  LegalActionsSchema,
  MatchPageSchema,
  MatchSummarySchema,
  MatchViewSchema,
  MinimalActionResultSchema,
  MyMatchesQuery,
} from '../../src/http/schemas.js';
import { WebhookSchema, DeliverySchema } from '../../src/http/webhook-schemas.js';
import { AccountDeliverySchema, AccountWebhookSchema } from '../../src/http/account-webhook-schemas.js';
import { LeaderboardSchema, ProfileSchema } from '../../src/http/player-schemas.js';
import { OwnSeekSchema, PublicSeekSchema, SeekListSchema } from '../../src/http/seek-schemas.js';
import { FeedEntrySchema, FeedSnapshotSchema } from '../../src/http/feed-schemas.js';
import { AcceptedChallengeSchema, ChallengeListSchema, ChallengeSchema } from '../../src/http/routes/challenges.js';
import { StandingsSchema, TournamentListSchema, TournamentSchema } from '../../src/http/routes/tournaments.js';
import { BulkPairingSchema } from '../../src/http/routes/bulk-pairings.js';
import { RematchSeat } from '../../src/http/routes/rematch.js';

const schema = buildSchema(typeDefs);

/** Each GraphQL type and its Zod twin (the types they contain are compared with them). */
const PAIRS: { graphql: string; zod: z.ZodType; io: 'input' | 'output' }[] = [
  // A match: the envelope of every game's view (the game's own part is its Match type's fields).
  { graphql: 'Match', zod: MatchViewSchema, io: 'output' },
  { graphql: 'Event', zod: EventSchema, io: 'output' },
  { graphql: 'EventPage', zod: EventPageSchema, io: 'output' },
  { graphql: 'ActionResult', zod: MinimalActionResultSchema, io: 'output' },
  { graphql: 'LegalAction', zod: LegalActionsSchema.shape.actions.element, io: 'output' },
  { graphql: 'MatchPage', zod: MatchPageSchema, io: 'output' },
  { graphql: 'MatchSummary', zod: MatchSummarySchema, io: 'output' },
  { graphql: 'CreateMatchResult', zod: CreateMatchResponse, io: 'output' },
  { graphql: 'JoinMatchResult', zod: JoinResponse, io: 'output' },
  { graphql: 'RematchSeat', zod: RematchSeat, io: 'output' },
  { graphql: 'CreateMatchInput', zod: CreateMatchBody, io: 'input' },
  { graphql: 'JoinMatchInput', zod: JoinBody, io: 'input' },
  // Webhooks.
  { graphql: 'Webhook', zod: WebhookSchema, io: 'output' },
  { graphql: 'WebhookDelivery', zod: DeliverySchema, io: 'output' },
  { graphql: 'WebhookInput', zod: WebhookRequestSchema, io: 'input' },
  { graphql: 'AccountWebhook', zod: AccountWebhookSchema, io: 'output' },
  { graphql: 'AccountWebhookDelivery', zod: AccountDeliverySchema, io: 'output' },
  { graphql: 'AccountWebhookInput', zod: AccountWebhookRequestSchema, io: 'input' },
  // Players.
  { graphql: 'PlayerProfile', zod: ProfileSchema, io: 'output' },
  { graphql: 'Leaderboard', zod: LeaderboardSchema, io: 'output' },
  // The lobby.
  { graphql: 'Challenge', zod: ChallengeSchema, io: 'output' },
  { graphql: 'ChallengePage', zod: ChallengeListSchema, io: 'output' },
  { graphql: 'AcceptedChallenge', zod: AcceptedChallengeSchema, io: 'output' },
  { graphql: 'CreateChallengeInput', zod: CreateChallengeBody, io: 'input' },
  { graphql: 'Seek', zod: PublicSeekSchema, io: 'output' },
  { graphql: 'OwnSeek', zod: OwnSeekSchema, io: 'output' },
  { graphql: 'SeekPage', zod: SeekListSchema, io: 'output' },
  { graphql: 'SeekInput', zod: SeekBody, io: 'input' },
  // The account feed (its end line is not a GraphQL message: the subscription completes or errs).
  { graphql: 'AccountFeedMessage', zod: z.union([FeedSnapshotSchema, FeedEntrySchema]), io: 'output' },
  // Tournaments and bulk pairings.
  { graphql: 'Tournament', zod: TournamentSchema, io: 'output' },
  { graphql: 'TournamentPage', zod: TournamentListSchema, io: 'output' },
  { graphql: 'TournamentStandings', zod: StandingsSchema, io: 'output' },
  { graphql: 'CreateTournamentInput', zod: CreateTournamentBody, io: 'input' },
  { graphql: 'BulkPairing', zod: BulkPairingSchema, io: 'output' },
  { graphql: 'CreateBulkPairingInput', zod: CreateBulkPairingBody, io: 'input' },
  // The arguments of the queries that REST's query schemas check (the resolvers parse them with these).
  { graphql: 'Query.matches', zod: ListQuery, io: 'input' },
  { graphql: 'Query.myMatches', zod: MyMatchesQuery, io: 'input' },
  { graphql: 'Query.leaderboard', zod: LeaderboardQuery, io: 'input' },
  { graphql: 'Query.myChallenges', zod: ChallengeListQuery, io: 'input' },
  { graphql: 'Query.seeks', zod: SeekListQuery, io: 'input' },
  { graphql: 'Query.tournaments', zod: TournamentListQuery, io: 'input' },
  { graphql: 'Query.tournamentStandings', zod: StandingsPageQuery, io: 'input' },
];

/** Where the two differ on purpose, each with why (a stale entry fails the test too). */
const ALLOWED: Allowances = {
  only: {
    'Match.game': "the engine's view: its fields are the game's Match type's own (checked by test/architecture/view-shapes.test.ts)",
    'Match.pending': "REST: game.pending (the engine's view), here on the match",
    'Match.pendingDecision': 'pending, typed',
    'Match.config': "REST: game.config (the engine's view), here on the match",
    'Match.seedCommitment': "REST: game.seedCommitment (the engine's view), here on the match",
    'Match.legalActions': 'REST: GET /v1/matches/{id}/legal-actions',
    'Match.events': 'REST: GET /v1/matches/{id}/events',
    'Match.webhooks': 'REST: GET /v1/matches/{id}/webhooks',
    'Event.type': 'event.type, selectable without the JSON',
    'EventPage.version': 'an EventPage is only reached through Match.events: the version is Match.version beside it',
    'LegalAction.type': 'action.type, selectable without the JSON',
    'ActionResult.match': "REST's Prefer: return=representation answer (ActionResult) has it; here built when selected",
    'ActionResult.pendingDecision': 'pending, typed',
    'ActionResult.replayed': 'REST says so in the Idempotent-Replayed header',
    'MatchOutcome.seat':
      "REST's lean answer types its outcome loosely (winner, reason, and more): it is the match's outcome, seat included",
    'CreateMatchResult.match': 'REST reads the match with GET /v1/matches/{id}',
    'JoinMatchResult.match': 'REST reads the match with GET /v1/matches/{id}',
    'Webhook.deliveries': 'REST: GET /v1/matches/{id}/webhooks/{webhookId}/deliveries',
    'AccountWebhook.deliveries': 'REST: GET /v1/me/webhooks/{webhookId}/deliveries',
    'Query_tournamentStandings.id': 'REST: the path parameter of /v1/tournaments/{id}/standings',
    'Query_myMatches.handle': 'REST takes ?handle= without a token; GraphQL myMatches needs one',
    // REST's MyMatchesQuery extends ListQuery, but GET /v1/me/matches passes none of these on to the service.
    ...Object.fromEntries(
      ['game', 'opponent', 'result', 'timeControl', 'rated', 'from', 'to'].map((f) => [
        `Query_myMatches.${f}`,
        "accepted by REST's schema, ignored by /v1/me/matches: not offered here",
      ]),
    ),
  },
  renamed: {
    'Event.data': 'event',
    'CreateMatchResult.gameId': 'game',
  },
  shaped: {
    'CreateMatchResult.webhook':
      "GraphQL's WebhookCreated nests the webhook beside its secret; REST's is the webhook's fields and the secret",
    'JoinMatchResult.webhook':
      "GraphQL's WebhookCreated nests the webhook beside its secret; REST's is the webhook's fields and the secret",
    'ActionResult.legalActions':
      'built when selected (empty when the next decision is not yours); REST sends them only with ?include=legal',
    'LegalAction.text': 'computed when selected; REST sends it only with ?text=true',
    'MatchSummary.timeLeftMs': 'a Float since it was published (every value is an integer); an Int would break typed clients',
    'Query_matches.rated': "a Boolean; REST's query string sends text, and the resolver passes it on as text to the same schema",
  },
  openEnums: ['GameId'],
};

const results = PAIRS.map((pair) => ({ pair, ...compareType(schema, pair.graphql, shapeOf(pair.zod, pair.io), pair.io, ALLOWED) }));

describe('GraphQL and Zod agree', () => {
  for (const { pair, problems } of results) {
    it(`${pair.graphql}${pair.graphql.includes('.') ? '(…)' : ''} says what its Zod twin says (${pair.io})`, () => {
      expect(problems).toEqual([]);
    });
  }

  it('every allowance is still needed', () => {
    const used = new Set(results.flatMap((r) => [...r.used]));
    const listed = [...Object.keys(ALLOWED.only ?? {}), ...Object.keys(ALLOWED.renamed ?? {}), ...Object.keys(ALLOWED.shaped ?? {})];
    expect(listed.filter((k) => !used.has(k))).toEqual([]);
  });

  it('the match envelope is all of matchViewCommon (the pair above reads it through MatchView)', () => {
    const shape = shapeOf(MatchViewSchema, 'output');
    expect(Object.keys(matchViewCommon).filter((k) => !shape.fields!.has(k))).toEqual([]);
  });
});
