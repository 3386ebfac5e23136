/**
 * What one GraphQL request may cost, checked before anything executes: the document's size before
 * it is parsed, its tokens while it is parsed (graphql-js stops at the cap), the depth and alias
 * caps as validation rules (cached with the parsed document), and the cost budget, which needs the
 * variables and so runs as a preExecution hook. Without them, thousands of aliases of
 * `events(limit: 500)` in one body made a 200 MB response, and large unique documents filled the
 * parsed-document cache (about 50 bytes kept per byte of document). The standard introspection
 * query passes them all.
 */
import {
  GraphQLError,
  Lexer,
  Source,
  TokenKind,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { GAME_LIST } from '../games/registry.js';
import { gameListSizes } from './games.js';

export interface QueryLimits {
  /** Selection depth, introspection excluded. */
  maxDepth: number;
  /** Aliased fields in one operation (fragments included). */
  maxAliases: number;
  /** Cost budget: each field costs 1, lists count as many items as they may hold (see LIST_SIZES). */
  maxCost: number;
  /** Lexical tokens in one document (names, punctuation, values; not comments or whitespace). */
  maxTokens: number;
  /** UTF-8 bytes of one document, checked before it is parsed. */
  maxDocumentBytes: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxDepth: 8,
  maxAliases: 30,
  maxCost: 10_000,
  maxTokens: 1_000,
  maxDocumentBytes: 16 * 1024,
};

/** A document longer than this (characters) is charged to the work budget by its size (src/service/work-costs.ts). */
export const LARGE_DOCUMENT_CHARS = 8 * 1024;

/**
 * Parsed documents Mercurius keeps (its LRU, by document text; failed documents in a second one
 * of the same size). Each holds up to twice this many, so at most 4 × 64 documents of at most
 * maxTokens and maxDocumentBytes are kept: bounded bytes, not only a bounded count.
 */
export const DOCUMENT_CACHE_ENTRIES = 64;

/** Stable codes in extensions.code, documented in docs/api.md. */
export const LIMIT_CODES = {
  depth: 'query-too-deep',
  aliases: 'too-many-aliases',
  cost: 'query-too-costly',
  tokens: 'too-many-tokens',
  size: 'query-too-large',
} as const;

/** The error of a document over maxTokens, with its code. */
export const tooManyTokens = (max: number): GraphQLError =>
  new GraphQLError(`The document has more than ${max} tokens: send a smaller query (use variables and fragments).`, {
    extensions: { code: LIMIT_CODES.tokens, status: 400, maxTokens: max },
  });

/** The cap in the error graphql-js's parser throws at its maxTokens (sic: "more that"), or null for any other error. */
export function tokenLimitOf(message: string): number | null {
  const m = /Document contains more that (\d+) tokens/.exec(message);
  return m ? Number(m[1]) : null;
}

/** Counts a document's tokens (lexing only, stopping past the cap); throws over maxTokens. */
export function checkTokens(source: string, limits: QueryLimits): void {
  const lexer = new Lexer(new Source(source));
  let n = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) {
      if (++n > limits.maxTokens) throw tooManyTokens(limits.maxTokens);
    }
  } catch (err) {
    if (err instanceof GraphQLError && err.extensions.code === LIMIT_CODES.tokens) throw err;
    // A syntax error is reported by the parser, as for any document.
  }
}

/** A document over maxDocumentBytes: refused before parsing, 413 like any body over a limit. */
export function checkDocumentSize(source: string, limits: QueryLimits): void {
  // Length in UTF-16 units is at most the UTF-8 length: only documents near the cap are measured.
  if (source.length * 3 <= limits.maxDocumentBytes) return;
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > limits.maxDocumentBytes) {
    throw new GraphQLError(
      `The document is ${bytes} bytes; at most ${limits.maxDocumentBytes} are accepted: send a smaller query (use variables and fragments).`,
      {
        extensions: { code: LIMIT_CODES.size, status: 413, maxBytes: limits.maxDocumentBytes },
      },
    );
  }
}

/**
 * How many items a list field may hold. A number is a fixed bound (the cells of a board, a
 * graveyard: each game bounds its own lists, GameGraphql.listSizes); a string names the argument
 * that bounds it (`limit`), whose schema default applies when it is not passed.
 */
const MATCH_TYPES = ['Match', ...GAME_LIST.map((m) => m.graphql.matchType)];
/** Fields of the Match interface are counted on whichever type a query selects them through. */
const perMatchType = (field: string, size: number | 'limit'): [string, number | 'limit'][] =>
  MATCH_TYPES.map((t) => [`${t}.${field}`, size]);

const LIST_SIZES: Record<string, number | 'limit'> = {
  'Query.matches': 'limit',
  'Query.myMatches': 'limit',
  'Query.myChallenges': 'limit',
  'Query.tournaments': 'limit',
  'Query.tournamentStandings': 'limit',
  ...Object.fromEntries([...perMatchType('events', 'limit'), ...perMatchType('legalActions', 200)]),
  ...gameListSizes(GAME_LIST),
  'ActionResult.events': 100,
  ...Object.fromEntries(perMatchType('webhooks', 10)),
  'Webhook.deliveries': 'limit',
  'Query.myWebhooks': 10,
  'AccountWebhook.deliveries': 'limit',
  'Query.seeks': 'limit',
  'Query.mySeeks': 100,
};

const listEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) => {
  const size = LIST_SIZES[`${type.name}.${field.name}`];
  if (size === undefined) return undefined;
  const n = size === 'limit' ? Number(args.limit ?? 1) : size;
  // An out-of-range limit is refused by the resolver; count it at its face value meanwhile.
  return 1 + Math.max(1, Number.isFinite(n) ? n : 1) * Math.max(1, childComplexity);
};

/**
 * `match(id, at:)` replays the log up to `at` (from the nearest checkpoint once it is warm, from
 * event 1 when cold: 26 ms for a 2,566-event match). Each alias costs this much, so a document
 * holds at most four with room for their fields: thirty aliases were 780 ms of CPU and every
 * pooled connection.
 */
export const TIME_TRAVEL_COST = 2_000;

const timeTravelEstimator: ComplexityEstimator = ({ type, field, args, childComplexity }) =>
  type.name === 'Query' && field.name === 'match' && args.at != null ? TIME_TRAVEL_COST + childComplexity : undefined;

function rejecter(code: string) {
  return (ctx: ValidationContext | null, error: GraphQLError) => {
    // Re-raise the library's error with our code and without its "Syntax Error:" prefix.
    const message = error.message.replace(/^Syntax Error: /, '');
    ctx?.reportError(new GraphQLError(message, { extensions: { code, status: 400 } }));
  };
}

export function validationRules(limits: QueryLimits): ValidationRule[] {
  return [
    maxDepthRule({
      n: limits.maxDepth,
      ignoreIntrospection: true,
      propagateOnRejection: false,
      onReject: [rejecter(LIMIT_CODES.depth)],
    }),
    // allowList [] : `__typename` aliases count too (the library lets them through by default).
    maxAliasesRule({ n: limits.maxAliases, allowList: [], propagateOnRejection: false, onReject: [rejecter(LIMIT_CODES.aliases)] }),
  ] as ValidationRule[];
}

/** The cost of an operation with its variables; throws a coded GraphQLError over budget. */
export function checkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  limits: QueryLimits,
): number {
  const cost = getComplexity({
    schema,
    query: document,
    variables: variables ?? {},
    ...(operationName ? { operationName } : {}),
    estimators: [timeTravelEstimator, listEstimator, simpleEstimator({ defaultComplexity: 1 })],
  });
  if (cost > limits.maxCost) {
    throw new GraphQLError(`Query cost ${cost} exceeds the budget of ${limits.maxCost}: ask for fewer items or fields.`, {
      extensions: { code: LIMIT_CODES.cost, status: 400, cost, maxCost: limits.maxCost },
    });
  }
  return cost;
}
