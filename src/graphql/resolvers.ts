/**
 * The GraphQL resolvers of queries, mutations and the types they return (subscriptions: ./subscriptions.ts;
 * tournaments: ./tournaments.ts; each game's Match type: ./games.ts). They call the same MatchService as REST, checking
 * inputs with the same Zod schemas, so semantics and error codes are the same. A match is loaded (and replayed at most
 * once) per request: the context memoises it by id.
 */
import type { IResolvers, MercuriusContext } from 'mercurius';
import { GraphQLScalarType, valueFromASTUntyped, type GraphQLResolveInfo } from 'graphql';
import { selectsField } from './selection.js';
import { validationLines } from '../contract/errors.js';
import { HandleSchema, IdempotencyKeySchema, MatchIdSchema, SeekIdSchema } from '../contract/ids.js';
import {
  AcceptChallengeBody,
  AccountWebhookRequestSchema,
  ActionBodySchema,
  ChallengeListQuery,
  CreateChallengeBody,
  CreateMatchBody,
  DeclineChallengeBody,
  JoinBody,
  LeaderboardQuery,
  ListQuery,
  SeekBody,
  SeekListQuery,
  WebhookRequestSchema,
} from '../contract/requests.js';
import type { WebhookView } from '../service/webhooks/endpoints.js';
import type { AccountWebhookView } from '../service/webhooks/account.js';
import type { PlayerRow } from '../persistence/types.js';
import { problems } from '../service/errors.js';
import type { LoadedMatch, MatchService } from '../service/match/match-service.js';
import type { Scope } from '../persistence/types.js';
import { eventOut } from './event-out.js';
import { parseInput, restBody } from './inputs.js';
import { tournamentResolvers } from './tournaments.js';
import { pendingOf } from '../service/match/reads.js';
import { guard } from './errors.js';
import type { MatchSource } from './match-source.js';
import type { LiveConnection } from './ws-connections.js';
import type { GraphqlBudgets } from './budgets.js';
import { FREE, workCost, type ChargeWork } from '../service/work-costs.js';
import { GAME_LIST } from '../games/registry.js';
import { gameResolvers, matchTypeResolver } from './games.js';

export interface GqlContext {
  token: string | null | undefined;
  /** Per-request memo: one load (and at most one replay) per match id. */
  loads: Map<string, Promise<LoadedMatch>>;
  /** What the request's costly fields are charged to (each alias on its own). */
  charge: ChargeWork;
}

// What our context factories put on Mercurius's context (Mercurius's documented way to type it):
// over HTTP all of GqlContext; over a WebSocket the connection, the rest set per operation.
declare module 'mercurius' {
  interface MercuriusContext extends Partial<GqlContext> {
    live?: LiveConnection;
  }
}

const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  serialize: (v) => v,
  parseValue: (v) => v,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables ?? undefined),
});

/**
 * The request's context. Over HTTP it is built per request; a query or mutation over a WebSocket
 * gets its own (the connection's credential, a fresh memo) from the preParsing hook. A context
 * without one (a Match inside a subscription's event) gets a fresh memo on each call: nothing is
 * kept between operations of one socket.
 */
function contextOf(c: MercuriusContext, budgets: GraphqlBudgets | null): GqlContext {
  const { token, loads, charge, live } = c;
  if (loads && charge) return { token, loads, charge };
  return { token: live?.token, loads: new Map(), charge: live && budgets ? budgets.workFor(live.address, live.token) : FREE };
}

/** An idempotencyKey argument, checked as REST checks the Idempotency-Key header (undefined when absent). */
function checkedIdempotencyKey(key: string | null | undefined): string | undefined {
  if (key == null) return undefined;
  if (!IdempotencyKeySchema.safeParse(key).success) throw problems.validation('idempotencyKey: 1–128 visible ASCII characters.');
  return key;
}

function checkId(id: string): void {
  if (!MatchIdSchema.safeParse(id).success)
    throw problems.validation('id: not a match id', ['id: letters, digits, "_" and "-", at most 64']);
}

function clampLimit(limit: number | null | undefined, def: number, max: number): number {
  const n = limit ?? def;
  if (!Number.isInteger(n) || n < 1 || n > max) throw problems.validation(`limit must be 1..${max}`, [`limit: must be 1..${max}`]);
  return n;
}

export function buildResolvers(service: MatchService, budgets: GraphqlBudgets | null = null): IResolvers {
  const ctxOf = (c: MercuriusContext) => contextOf(c, budgets);
  /** The match for this request, its credential checked for `scope` (the scope of the REST twin). */
  const loadMemo = (ctx: GqlContext, id: string, scope: Scope = 'match:read'): Promise<LoadedMatch> => {
    const key = scope === 'match:read' ? id : `${id}\0${scope}`;
    let p = ctx.loads.get(key);
    if (!p) {
      p = service.load(id, ctx.token, scope);
      ctx.loads.set(key, p);
    }
    return p;
  };
  /** A seat's webhooks are for credentials with webhook:write, as on REST (/v1/matches/{id}/webhooks…). */
  const webhookMatch = (ctx: GqlContext, id: string) => loadMemo(ctx, id, 'webhook:write');

  const sourceOf = (loaded: LoadedMatch): MatchSource => ({
    mv: service.matchView(loaded),
    load: async () => loaded,
  });

  /** The fields every Match type has, from the match view and the game's contract. */
  const matchFields = {
    id: (s: MatchSource) => s.mv.id,
    gameId: (s: MatchSource) => s.mv.gameId,
    version: (s: MatchSource) => s.mv.version,
    status: (s: MatchSource) => s.mv.status,
    winner: (s: MatchSource) => s.mv.winner,
    seat: (s: MatchSource) => s.mv.seat,
    seats: (s: MatchSource) => s.mv.seats,
    sandbox: (s: MatchSource) => s.mv.sandbox,
    createdAt: (s: MatchSource) => s.mv.createdAt,
    rulesHash: (s: MatchSource) => s.mv.rulesHash,
    engineVersion: (s: MatchSource) => s.mv.engineVersion,
    cardSetId: (s: MatchSource) => s.mv.cardSetId,
    pending: (s: MatchSource) => pendingOf(s.mv),
    pendingDecision: (s: MatchSource) => pendingOf(s.mv),
    timeControl: (s: MatchSource) => s.mv.timeControl,
    rated: (s: MatchSource) => s.mv.rated,
    clock: (s: MatchSource) => s.mv.clock,
    outcome: (s: MatchSource) => s.mv.outcome,
    seedCommitment: (s: MatchSource) => s.mv.game?.seedCommitment ?? null,
    seed: (s: MatchSource) => s.mv.seed,
    rematch: (s: MatchSource) => s.mv.rematch,
    rematchOf: (s: MatchSource) => s.mv.rematchOf,
    config: (s: MatchSource) =>
      guard(async () => {
        if (s.mv.game === null) return null;
        return (await s.load()).row.config;
      }),
    legalActions: (s: MatchSource) =>
      guard(async () => {
        const m = await s.load();
        const state = m.state;
        if (!state) return [];
        // Text is named from the caller's own view, built once per list and only when asked.
        let describe: ((a: { type: string }) => string) | null = null;
        const text = (a: { type: string }) => (describe ??= m.ruleset.actionDescriber(state, m.viewer))(a);
        return service.legal(m, { text: false }).map((l) => ({ type: l.action.type, action: l.action, text }));
      }),
    webhooks: (s: MatchSource, _args: unknown, c: MercuriusContext) =>
      guard(async () => {
        const m = await s.load();
        if (!m.seat) return null;
        const hooks = await webhookMatch(ctxOf(c), m.row.id);
        return (await service.webhooks.list(hooks)).map((w) => ({ ...w, match: hooks }));
      }),
    events: (s: MatchSource, args: { after?: number | null; limit?: number | null }, c: MercuriusContext) =>
      guard(async () => {
        const after = args.after ?? 0;
        if (!Number.isInteger(after) || after < 0) throw problems.validation('after must be ≥ 0', ['after: must be ≥ 0']);
        const limit = clampLimit(args.limit, 100, 500);
        const m = await s.load();
        ctxOf(c).charge(workCost.eventPage(limit, after, m.version));
        const page = await service.events(m, after, limit);
        return { events: page.events.map(eventOut), next: page.next, hasMore: page.hasMore };
      }),
  };

  const tournaments = tournamentResolvers(service, (c) => ctxOf(c).charge);

  return {
    ...gameResolvers(GAME_LIST, matchFields),
    JSON: JsonScalar,
    Query: {
      ...tournaments.Query,
      match: (_root, args: { id: string; at?: number | null }, c) =>
        guard(async () => {
          checkId(args.id);
          if (args.at != null) {
            if (!Number.isInteger(args.at) || args.at < 1) throw problems.validation('at must be ≥ 1', ['at: must be ≥ 1']);
            const ctx = ctxOf(c);
            return sourceOf(await service.loadAt(args.id, ctx.token, args.at, ctx.charge));
          }
          return sourceOf(await loadMemo(ctxOf(c), args.id));
        }),
      player: (_root, args: { handle: string }) =>
        guard(() => {
          if (!HandleSchema.safeParse(args.handle).success) throw problems.validation('handle is not a handle.', ['handle: not a handle']);
          return service.ratings.profile(args.handle);
        }),
      leaderboard: (_root, args: { game?: string | null; timeControl?: string | null; limit?: number | null }) =>
        guard(() => {
          // The same checks as GET /v1/leaderboard.
          const q = LeaderboardQuery.safeParse({
            game: args.game ?? undefined,
            timeControl: args.timeControl ?? undefined,
            limit: args.limit ?? undefined,
          });
          if (!q.success) throw problems.validation('Invalid leaderboard query.', validationLines('', q.error.issues));
          return service.ratings.leaderboard(q.data.game, q.data.timeControl, q.data.limit);
        }),
      matches: (_root, args: Record<string, unknown> & { cursor?: string | null; limit?: number | null }) =>
        guard(() => {
          // The same filters as GET /v1/matches, checked by the same schema.
          const { cursor, limit, ...rest } = args;
          // GraphQL's Boolean arrives as a boolean, the query string's as text.
          const given = Object.entries(rest)
            .filter(([, v]) => v != null)
            .map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v]);
          const q = ListQuery.omit({ cursor: true, limit: true }).safeParse(Object.fromEntries(given));
          if (!q.success) throw problems.validation('Invalid history filters.', validationLines('', q.error.issues));
          return service.listMatches(q.data, cursor ?? undefined, clampLimit(limit, 20, 100));
        }),
      challenge: (_root, args: { id: string }) => guard(() => service.challenges.get(args.id)),
      myChallenges: (
        _root,
        args: { direction?: 'in' | 'out' | null; status?: string | null; cursor?: string | null; limit?: number | null },
        c,
      ) =>
        guard(async () => {
          const q = parseInput(
            ChallengeListQuery,
            restBody({ direction: args.direction, status: args.status, cursor: args.cursor, limit: args.limit }),
            'challenge list query',
          );
          const me = await service.players.player(ctxOf(c).token, 'match:read');
          return service.challenges.list(me, q.direction, { status: q.status, limit: q.limit, cursor: q.cursor });
        }),
      myMatches: (
        _root,
        args: {
          turn?: 'mine' | 'any' | null;
          status?: 'waiting' | 'active' | 'finished' | null;
          cursor?: string | null;
          limit?: number | null;
        },
        c,
      ) =>
        guard(() =>
          service.myMatches({
            token: ctxOf(c).token,
            handle: undefined,
            status: args.status ?? undefined,
            turn: args.turn ?? 'any',
            cursor: args.cursor ?? undefined,
            limit: clampLimit(args.limit, 20, 100),
          }),
        ),
      // The same schemas and service calls as GET /v1/seeks and /v1/me/seeks.
      seeks: (_root, args: { game?: string | null; cursor?: string | null; limit?: number | null }) =>
        guard(() => {
          const q = parseInput(SeekListQuery, restBody({ game: args.game, cursor: args.cursor, limit: args.limit }), 'seek list query');
          return service.seeks.page({ game: q.game }, { limit: q.limit, cursor: q.cursor });
        }),
      mySeeks: (_root, _args, c) => guard(() => service.seeks.mine(ctxOf(c).token)),
      // The same service calls and scopes as /v1/me/webhooks….
      myWebhooks: (_root, _args, c) =>
        guard(async () => {
          const me = await service.players.player(ctxOf(c).token, 'match:read');
          return (await service.accountWebhooks.list(me)).map((w) => ({ ...w, me }));
        }),
    },
    Mutation: {
      ...tournaments.Mutation,
      // The same schemas and service calls as /v1/challenges.
      createChallenge: (_root, args: { input: Record<string, unknown> }, c) =>
        guard(async () => {
          const body = parseInput(CreateChallengeBody, restBody(args.input, ['settings']), 'challenge');
          return service.challenges.create(await service.players.player(ctxOf(c).token, 'match:create'), body);
        }),
      acceptChallenge: (_root, args: { id: string; deck: unknown; idempotencyKey?: string | null }, c) =>
        guard(async () => {
          const body = parseInput(AcceptChallengeBody, restBody({ deck: args.deck }), 'acceptance');
          const idempotencyKey = checkedIdempotencyKey(args.idempotencyKey);
          return service.challenges.accept(await service.players.player(ctxOf(c).token, 'match:create'), args.id, body, { idempotencyKey });
        }),
      declineChallenge: (_root, args: { id: string; reason?: string | null }, c) =>
        guard(async () => {
          const body = parseInput(DeclineChallengeBody, restBody({ reason: args.reason }), 'decline');
          return service.challenges.decline(await service.players.player(ctxOf(c).token, 'match:create'), args.id, body.reason);
        }),
      registerAccountWebhook: (_root, args: { webhook: unknown }, c) =>
        guard(async () => {
          const input = parseInput(AccountWebhookRequestSchema, restBody(args.webhook as Record<string, unknown>), 'webhook');
          const me = await service.players.player(ctxOf(c).token, 'webhook:write');
          const r = await service.accountWebhooks.register(me, input);
          return { webhook: { ...r.webhook, me }, secret: r.secret };
        }),
      deleteAccountWebhook: (_root, args: { webhookId: string }, c) =>
        guard(async () => {
          await service.accountWebhooks.remove(await service.players.player(ctxOf(c).token, 'webhook:write'), args.webhookId);
          return true;
        }),
      rotateAccountWebhookSecret: (_root, args: { webhookId: string }, c) =>
        guard(async () => {
          const me = await service.players.player(ctxOf(c).token, 'webhook:write');
          const r = await service.accountWebhooks.rotate(me, args.webhookId);
          return { webhook: { ...r.webhook, me }, secret: r.secret };
        }),
      redeliverAccountWebhook: (_root, args: { webhookId: string; deliveryId: string }, c) =>
        guard(async () =>
          service.accountWebhooks.redeliver(await service.players.player(ctxOf(c).token, 'webhook:write'), args.webhookId, args.deliveryId),
        ),
      cancelChallenge: (_root, args: { id: string }, c) =>
        guard(async () => service.challenges.cancel(await service.players.player(ctxOf(c).token, 'match:create'), args.id)),
      postSeek: (_root, args: { input: Record<string, unknown>; idempotencyKey?: string | null }, c) =>
        guard(() =>
          service.seeks.post(ctxOf(c).token, parseInput(SeekBody, restBody(args.input), 'seek'), {
            idempotencyKey: checkedIdempotencyKey(args.idempotencyKey),
          }),
        ),
      cancelSeek: (_root, args: { seekId: string }, c) =>
        guard(() => {
          if (!SeekIdSchema.safeParse(args.seekId).success)
            throw problems.validation('seekId: not a seek id', ['seekId: sk_ and letters, digits, "_" and "-"']);
          return service.seeks.cancel(ctxOf(c).token, args.seekId);
        }),
      // The same schema, service call and credential checks as POST /v1/matches and …/join.
      createMatch: (_root, args: { input: Record<string, unknown> }, c) =>
        guard(async () => {
          const body = parseInput(CreateMatchBody, restBody(args.input, ['settings', 'position']), 'match');
          if (body.ai) ctxOf(c).charge(workCost.aiDecision(body.ai.level));
          const r = await service.createMatch(body, ctxOf(c).token, (c as { reply?: { request: { ip: string } } }).reply?.request.ip);
          const token = r.tokens[r.seat] as string;
          const loaded = await service.load(r.id, token);
          return {
            ...r,
            gameId: r.game,
            token,
            webhook: r.webhook ? { webhook: { ...r.webhook, match: loaded }, secret: r.webhook.secret } : null,
            match: sourceOf(loaded),
          };
        }),
      joinMatch: (_root, args: { matchId: string; input: Record<string, unknown> }, c) =>
        guard(async () => {
          checkId(args.matchId);
          const body = parseInput(JoinBody, restBody(args.input), 'join');
          const r = await service.joinMatch(args.matchId, body, ctxOf(c).token);
          ctxOf(c).loads.delete(args.matchId);
          const loaded = await service.load(r.id, r.token);
          return {
            ...r,
            webhook: r.webhook ? { webhook: { ...r.webhook, match: loaded }, secret: r.webhook.secret } : null,
            match: sourceOf(loaded),
          };
        }),
      offerRematch: (_root, args: { matchId: string }, c) =>
        guard(async () => {
          checkId(args.matchId);
          const r = await service.offerRematch(args.matchId, ctxOf(c).token);
          ctxOf(c).loads.delete(args.matchId);
          return r.rematch;
        }),
      declineRematch: (_root, args: { matchId: string }, c) =>
        guard(async () => {
          checkId(args.matchId);
          const r = await service.declineRematch(args.matchId, ctxOf(c).token);
          ctxOf(c).loads.delete(args.matchId);
          return r.rematch;
        }),
      acceptRematch: (_root, args: { matchId: string }, c) =>
        guard(async () => {
          checkId(args.matchId);
          const r = await service.acceptRematch(args.matchId, ctxOf(c).token);
          ctxOf(c).loads.delete(args.matchId);
          return { ...r, webhook: null, match: sourceOf(await service.load(r.id, r.token)) };
        }),
      claimRematchSeat: (_root, args: { matchId: string }, c) =>
        guard(async () => {
          checkId(args.matchId);
          return service.claimRematchSeat(args.matchId, ctxOf(c).token);
        }),
      registerWebhook: (_root, args: { matchId: string; webhook: unknown }, c) =>
        guard(async () => {
          checkId(args.matchId);
          const input = WebhookRequestSchema.safeParse(args.webhook);
          if (!input.success)
            throw problems.validation('The webhook does not match the schema.', validationLines('webhook', input.error.issues));
          const m = await webhookMatch(ctxOf(c), args.matchId);
          const r = await service.webhooks.register(m, input.data);
          return { webhook: { ...r.webhook, match: m }, secret: r.secret };
        }),
      deleteWebhook: (_root, args: { matchId: string; webhookId: string }, c) =>
        guard(async () => {
          checkId(args.matchId);
          await service.webhooks.remove(await webhookMatch(ctxOf(c), args.matchId), args.webhookId);
          return true;
        }),
      rotateWebhookSecret: (_root, args: { matchId: string; webhookId: string }, c) =>
        guard(async () => {
          checkId(args.matchId);
          const m = await webhookMatch(ctxOf(c), args.matchId);
          const r = await service.webhooks.rotate(m, args.webhookId);
          return { webhook: { ...r.webhook, match: m }, secret: r.secret };
        }),
      redeliverWebhook: (_root, args: { matchId: string; webhookId: string; deliveryId: string }, c) =>
        guard(async () => {
          checkId(args.matchId);
          return service.webhooks.redeliver(await webhookMatch(ctxOf(c), args.matchId), args.webhookId, args.deliveryId);
        }),
      submitAction: (
        _root,
        args: {
          matchId: string;
          action?: unknown;
          input?: Record<string, unknown> | null;
          idempotencyKey?: string | null;
          expectedVersion?: number | null;
        },
        c,
        info: GraphQLResolveInfo,
      ) =>
        guard(async () => {
          const ctx = ctxOf(c);
          checkId(args.matchId);
          if ((args.action == null) === (args.input == null)) {
            throw problems.validation('Pass exactly one of action (JSON) and input (ActionInput).');
          }
          const raw = args.action ?? Object.fromEntries(Object.entries(args.input ?? {}).filter(([, v]) => v !== null && v !== undefined));
          const parsed = ActionBodySchema.safeParse(raw);
          if (!parsed.success)
            throw problems.validation('The action does not match the schema.', validationLines('action', parsed.error.issues));
          checkedIdempotencyKey(args.idempotencyKey);
          // The match view is built only when the query selects it (as REST's Prefer: return=minimal),
          // the caller's legal actions only when they are selected (as REST's ?include=legal).
          const withMatch = selectsField(info, 'match');
          const out = await service.submitAction(args.matchId, ctx.token, parsed.data, {
            idempotencyKey: args.idempotencyKey ?? undefined,
            expectedVersion: args.expectedVersion ?? undefined,
            includeLegal: selectsField(info, 'legalActions'),
            representation: withMatch ? 'full' : 'minimal',
            charge: ctx.charge,
          });
          const { summary } = out;
          // The new state is in the service cache at this version; a later field needing it reloads once.
          for (const key of ctx.loads.keys()) if (key === args.matchId || key.startsWith(`${args.matchId}\0`)) ctx.loads.delete(key);
          const match: MatchSource | null = out.result ? { mv: out.result.match, load: () => loadMemo(ctx, args.matchId) } : null;
          // A legal action's text is named from the caller's view, loaded (from the cache) only when asked.
          let describe: Promise<(a: { type: string }) => string> | null = null;
          const text = (a: { type: string }) =>
            guard(async () => {
              describe ??= loadMemo(ctx, args.matchId).then((m) => m.ruleset.actionDescriber(m.state!, m.viewer));
              return (await describe)(a);
            });
          return {
            version: summary.version,
            events: summary.events.map(eventOut),
            match,
            replayed: out.replayed,
            status: summary.status,
            winner: summary.winner,
            outcome: summary.outcome,
            pending: summary.pending,
            pendingDecision: summary.pending,
            legalActions: (out.legal ?? []).map((l) => ({ type: l.action.type, action: l.action, text })),
          };
        }),
    },
    Match: {
      resolveType: matchTypeResolver(GAME_LIST),
    },
    Webhook: {
      deliveries: (w: WebhookView & { match: LoadedMatch }, args: { limit?: number | null }) =>
        guard(() => service.webhooks.deliveries(w.match, w.id, clampLimit(args.limit, 20, 100))),
    },
    AccountWebhook: {
      deliveries: (w: AccountWebhookView & { me: PlayerRow }, args: { limit?: number | null }) =>
        guard(() => service.accountWebhooks.deliveries(w.me, w.id, clampLimit(args.limit, 20, 100))),
    },
    LegalAction: {
      text: (l: { action: { type: string }; text: (a: { type: string }) => string | Promise<string> }) => l.text(l.action),
    },
  } as IResolvers;
}
