/**
 * GraphQL at /graphql (Mercurius). Resolvers call the same MatchService as REST, so semantics and
 * error codes are the same (a Match is of its game's Match type: ./games.ts); errors carry extensions { code, status, version?, errors? }.
 * The resolvers are in ./resolvers.ts (a match is loaded, and replayed at most once, per request), the
 * schema in ./schema.ts (written by resource in ./sdl/). Subscriptions run over WebSocket on the same
 * path (./subscriptions.ts, ./ws-connections.ts); tournaments have their own module (./tournaments.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import mercurius, { type IResolvers } from 'mercurius';
import fastifyWebsocket from '@fastify/websocket';
import { GraphQLError, getOperationAST } from 'graphql';
import { graphqlCjs } from './graphql-cjs.js';
import type { DocumentNode } from 'graphql';
import { problems } from '../service/errors.js';
import type { MatchService } from '../service/match/match-service.js';
import { bearerToken } from '../service/accounts/tokens.js';
import { typeDefs } from './schema.js';
import { errorFormatter, wsRequestError } from './errors.js';
import {
  DEFAULT_QUERY_LIMITS,
  DOCUMENT_CACHE_ENTRIES,
  LARGE_DOCUMENT_CHARS,
  checkCost,
  checkDocumentSize,
  checkTokens,
  validationRules,
  type QueryLimits,
  TIME_TRAVEL_COST,
} from './limits.js';
import { graphiqlRoutes } from './graphiql.js';
import { DEFAULT_MAX_OPERATIONS, DEFAULT_MAX_SUBSCRIPTIONS, WsConnections, type LiveConnection } from './ws-connections.js';
import type { GraphqlBudgets } from './budgets.js';
import { workCost } from '../service/work-costs.js';
import { HEARTBEAT_MS } from '../service/live/event-follower.js';
import { buildSubscriptionResolvers } from './subscriptions.js';
import { buildResolvers, type GqlContext } from './resolvers.js';

export interface GraphqlPluginOptions {
  service: MatchService;
  /** The server's budgets and caps per address, which REST spends too. */
  budgets: GraphqlBudgets;
  graphiql: boolean;
  limits?: QueryLimits;
  /** Active subscriptions one WebSocket connection may hold (default 20). */
  maxSubscriptionsPerConnection?: number;
  /** Queries and mutations one WebSocket may have in flight (default 8); one more: too-many-operations. */
  maxOperationsPerConnection?: number;
}

/** A document refused before anything runs, with the code an HTTP request would get. */
const refused = (message: string, locations?: unknown) => {
  const e = new GraphQLError(message, { extensions: { code: 'graphql-validation-failed', status: 400 } });
  if (locations) (e as { locations?: unknown }).locations = locations;
  return e;
};

async function graphqlPlugin(app: FastifyInstance, opts: GraphqlPluginOptions) {
  const limits = opts.limits ?? DEFAULT_QUERY_LIMITS;
  const { budgets } = opts;
  const connections = new WsConnections(
    opts.service,
    opts.maxSubscriptionsPerConnection ?? DEFAULT_MAX_SUBSCRIPTIONS,
    app.log,
    budgets.streams,
    opts.maxOperationsPerConnection ?? DEFAULT_MAX_OPERATIONS,
  );
  // A WebSocket holds memory for as long as it is open: at most so many per address. Refused (429
  // too-many-streams, in GraphQL's shape) before the upgrade; the slot is freed when the socket closes.
  app.addHook('onRequest', async (req) => {
    if (req.headers.upgrade?.toLowerCase() !== 'websocket' || req.url.split('?', 1)[0] !== '/graphql') return;
    const address = req.ip;
    budgets.sockets.take(address);
    req.raw.socket.once('close', () => budgets.sockets.give(address));
    connections.addressOf(req.raw, address);
  });
  // GraphQL over HTTP: a client that accepts application/graphql-response+json gets its answers
  // (errors included) as that type, whose status codes it may trust; others get application/json.
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.url.split('?', 1)[0] !== '/graphql' || !acceptsGraphqlResponse(req.headers.accept)) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json'))
      reply.header('content-type', 'application/graphql-response+json; charset=utf-8');
    return payload;
  });
  // Registered here rather than by Mercurius, to see each socket before Mercurius does. Stopping
  // closes every socket with 1001 first (as the NDJSON streams end with "shutdown").
  app.addHook('preClose', async () => connections.closeAll(app.websocketServer));
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  connections.attach(app.websocketServer);
  await app.register(mercurius, {
    schema: typeDefs,
    resolvers: { ...buildResolvers(opts.service, budgets), ...buildSubscriptionResolvers(opts.service, limits, budgets) } as IResolvers,
    graphiql: false, // Mercurius's page loads its scripts from a CDN; ours serves them (./graphiql.ts)
    path: '/graphql',
    validationRules: validationRules(limits),
    // Parsing stops at maxTokens (graphql-js counts while it lexes); what is cached stays bounded (limits.ts).
    graphql: { parseOptions: { maxTokens: limits.maxTokens } },
    cache: DOCUMENT_CACHE_ENTRIES,
    // A cached document is executed by code graphql-jit compiled for it from the second run on (a
    // bot sends the same mutation every move): bench:api PROTOCOL=ws, two alternations, 1.11–1.27×
    // the moves/s at 0.76–0.90× the server's CPU per move.
    jit: 1,
    errorFormatter,
    context: (req: FastifyRequest, _reply: FastifyReply): GqlContext => ({
      token: bearerToken(req.headers.authorization),
      loads: new Map(),
      charge: budgets.work(req),
    }),
    subscription: {
      context: (socket) => connections.contextFor(socket),
      // Queries and mutations over the same socket too (one connection per player, as game clients keep).
      fullWsTransport: true,
      keepAlive: HEARTBEAT_MS,
      wsDefaultSubprotocol: 'graphql-transport-ws',
    },
  });
  // A query or mutation over a WebSocket (no HTTP reply; Mercurius runs it with a shallow copy of the
  // connection's context): it counts against the address's request ceiling as an HTTP request does,
  // gets its own credential (the connection's) and memo, and the caps HTTP's parser applies.
  app.graphql.addHook('preParsing', async (_schema, source, context) => {
    if ((context as { reply?: unknown }).reply) return;
    const ctx = context;
    const live = ctx.live;
    // What this throws leaves fastify.graphql and is coded by the wrapper below (wsRequestError).
    if (!live) throw problems.invalidToken();
    budgets.operation(live.address);
    ctx.token = live.token;
    ctx.loads = new Map();
    ctx.charge = budgets.workFor(live.address, live.token);
    checkDocumentSize(source, limits);
    checkTokens(source, limits);
    if (source.length > LARGE_DOCUMENT_CHARS) ctx.charge(workCost.document(source.length));
  });
  // Documents found valid (Mercurius hands a cached document back as the same object, and validity
  // does not depend on the variables): a bot's one mutation is validated once, not on every move.
  const valid = new WeakSet<DocumentNode>();
  const firstValidationError = (schema: Parameters<typeof graphqlCjs.validate>[0], document: DocumentNode) => {
    if (valid.has(document)) return;
    const errors = graphqlCjs.validate(schema, document, [...graphqlCjs.specifiedRules, ...validationRules(limits)]);
    const first = errors[0];
    if (!first) {
      valid.add(document);
      return;
    }
    if (first.extensions.code) throw first;
    throw refused(first.message, first.locations);
  };
  // Over a WebSocket Mercurius sends what this throws as it is thrown (over HTTP its route formats
  // it): a refused operation (its variables, a limit) is coded here as the same refusal over HTTP.
  const execute = app.graphql;
  app.graphql = new Proxy(execute, {
    apply: async (target, self, args: Parameters<typeof execute>) => {
      const ctx = args[1] as { reply?: unknown; live?: LiveConnection } | undefined;
      // Over a WebSocket: one of the connection's operations in flight until it is answered.
      const live = ctx?.reply ? undefined : ctx?.live;
      try {
        live?.beginOperation();
      } catch (e) {
        throw wsRequestError(e);
      }
      try {
        return await Reflect.apply(target, self, args);
      } catch (e) {
        if (ctx?.reply) throw e;
        throw wsRequestError(e);
      } finally {
        live?.endOperation();
      }
    },
  });
  // Before parsing: the size cap, so an oversized document costs neither CPU nor cache.
  app.graphql.addHook('preParsing', (_schema, source) => checkDocumentSize(source, limits));
  // Mercurius takes text that is not GraphQL for a syntax tree in JSON, and graphql-js trusts a
  // tree's shape (a malformed one failed with JavaScript's own error text): only parsed text runs.
  app.graphql.addHook('preValidation', (schema, document, context) => {
    if (!((document as { loc?: unknown } | null)?.loc instanceof graphqlCjs.Location)) {
      throw refused('The query must be GraphQL text (a syntax tree in JSON is not accepted).');
    }
    // Over a WebSocket a refused document is answered with the error thrown (Mercurius does not
    // format it as over HTTP): the first validation error then, coded, as for a subscription.
    if (!(context as { reply?: unknown }).reply) firstValidationError(schema, document);
  });
  // Over WebSocket Mercurius parses a subscription's text itself, without the token cap: the same
  // caps then (the frame is at most 64 KiB, so the parse was bounded), before anything runs.
  app.graphql.addHook('preSubscriptionParsing', (_schema, source, context, id) => {
    // A subscription: no longer one of the connection's unanswered operations (ws-connections.ts).
    (context as { live?: LiveConnection }).live?.operations.started(id);
    checkDocumentSize(source, limits);
    checkTokens(source, limits);
  });
  // A large document costs as much to parse and validate as a picture to draw: charged by its size.
  app.graphql.addHook('preParsing', async (_schema, source, context) => {
    const reply = (context as { reply?: FastifyReply }).reply;
    if (reply && source.length > LARGE_DOCUMENT_CHARS) budgets.work(reply.request)(workCost.document(source.length));
  });
  // Mercurius does not validate a subscription's document: the same rules as for HTTP, before it runs.
  app.graphql.addHook('preSubscriptionExecution', (schema, document) => firstValidationError(schema, document));
  // The cost depends on the variables, so it is checked per request, before execution.
  app.graphql.addHook('preExecution', async (schema, document, context, variables) => {
    const reply = context.reply as { request: FastifyRequest } | undefined;
    if (!reply) {
      // Over a WebSocket the hook does not see which operation runs (Mercurius chose it, and
      // subscriptions do not come here): every operation of the document is within the budget.
      const named = document.definitions.flatMap((d) => (d.kind === 'OperationDefinition' ? [d.name?.value] : []));
      for (const name of named.length > 1 ? named : [undefined]) checkCost(schema, document, variables, name, limits);
      return;
    }
    const body = reply.request.body as { operationName?: unknown } | undefined;
    const operationName = typeof body?.operationName === 'string' ? body.operationName : undefined;
    if (getOperationAST(document, operationName)?.operation === 'subscription') {
      throw refused('Subscriptions are served over WebSocket at /graphql (protocol graphql-transport-ws), not over HTTP.');
    }
    // A document costing as much as a time-travel field waits its turn among its address's costly requests.
    if (checkCost(schema, document, variables, operationName, limits) >= TIME_TRAVEL_COST) await budgets.costly(reply.request);
  });
  if (opts.graphiql) await app.register(graphiqlRoutes);
}

/** Whether an Accept header lists application/graphql-response+json with a q above zero. */
export function acceptsGraphqlResponse(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((x) => x.trim().toLowerCase());
    if (type !== 'application/graphql-response+json') return false;
    const q = params.find((x) => x.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

export default fp(graphqlPlugin, { name: 'graphql' });
