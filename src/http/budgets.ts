/**
 * What one caller may spend beyond the per-client request budget of ./rate-limit.ts:
 *
 * - a ceiling per address over every request it makes, whatever credentials it uses (match
 *   creates and token minting included) and every GraphQL subscription it starts over a
 *   WebSocket: credentials cost nothing to make, so a budget per credential alone is no limit;
 * - a work budget per client and, separately, per address: every costly operation (time travel,
 *   exports, pictures, standings, event pages, bulk pairing, the computer's decisions, a large
 *   GraphQL document) is charged by the work it does, in units of about a millisecond of CPU
 *   (src/service/work-costs.ts, ./work-budget.ts), so that many small ones and a few large ones
 *   cost alike;
 * - the expensive work itself runs a few at a time per node (./work-gate.ts), so that a flood of
 *   it, from many addresses, still leaves the event loop free for health probes and moves;
 * - caps per address on what stays open: live streams (NDJSON, SSE, GraphQL subscriptions) and
 *   WebSocket connections (./live-slots.ts).
 *
 * The address is Fastify's `req.ip`: the socket's peer unless the app trusts a proxy (TRUST_PROXY),
 * then the client X-Forwarded-For names. Counters live in each node's memory, counted with
 * @fastify/rate-limit's limiters (createRateLimit, the same store as the per-client budget).
 * A setting of 0 turns its limit off.
 */
import { BlockList, isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { problems } from '../service/errors.js';
import type { KnownCredentials } from '../service/accounts/credentials.js';
import type { ChargeWork } from '../service/work-costs.js';
import { clientKey, clientKeyOf } from './rate-limit.js';
import { WorkBuckets, takeWork } from './work-budget.js';
import { WorkGate } from './work-gate.js';
import { LiveSlots } from './live-slots.js';
import { AddressLanes, AT_ONCE_RETRY_AFTER_S } from './address-lanes.js';
import { RefusalPauses } from './refusal-pauses.js';

/** A costly request's turn of its address's lane, given back when its answer is sent (or it is aborted). */
const RELEASE = Symbol('costly-release');
/** A request's turn of its address's lane of all requests, given back the same way (or when it becomes a stream). */
const REQUEST_RELEASE = Symbol('request-release');
/** Costly requests of one address waiting for their turn, before the next is refused. */
const COSTLY_QUEUE = 8;
/** Requests of one address waiting for their turn, before the next is refused. */
const REQUEST_QUEUE = 256;

export interface BudgetSettings {
  /** Requests per minute per address, over all its credentials (GraphQL operations over a WebSocket count too). */
  perAddressPerMinute: number;
  /** Work units (about a millisecond of CPU each) per minute per client. */
  workPerMinute: number;
  /** Work units per minute per address, over all its clients. */
  workPerAddressPerMinute: number;
  /** Expensive work (pictures, exports) running at once on this node; more wait in a short queue, past it 503 server-busy. */
  expensiveAtOnce: number;
  /** Live streams (NDJSON and SSE streams, GraphQL subscriptions) open at once per address. */
  streamsPerAddress: number;
  /** WebSocket connections open at once per address. */
  socketsPerAddress: number;
  /** Costly requests one address runs at once; 0: no bound (more wait in a short line, past it 429 too-many-at-once). */
  costlyAtOncePerAddress?: number;
  /** Requests of one address answered at once (streams and WebSockets aside: their own caps count them); 0 or absent: no bound. */
  requestsAtOncePerAddress?: number;
  /** Seconds of its budget a work bucket holds: what a fresh caller may spend at once (default 60, a minute's). */
  workBurstSeconds?: number;
  /** A refusal past an address's few a second is answered after this long (./refusal-pauses.ts); 0 or absent: at once. */
  refusalPauseMs?: number;
  /** Addresses and CIDR ranges the request ceilings do not count (a trusted back end, a monitor); work budgets, lines and caps still apply. */
  exempt?: readonly string[];
}

/** A BlockList of addresses and ranges (`10.0.0.0/8`, `::1`), or null for none. */
export function addressList(entries: readonly string[] | undefined): BlockList | null {
  if (!entries?.length) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const type = isIPv6(address!) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address!, type);
    else list.addSubnet(address!, Number(bits), type);
  }
  return list;
}

export const NO_BUDGETS: BudgetSettings = {
  perAddressPerMinute: 0,
  workPerMinute: 0,
  workPerAddressPerMinute: 0,
  expensiveAtOnce: 0,
  streamsPerAddress: 0,
  socketsPerAddress: 0,
};

/** Pictures and exports waiting for the gate, per concurrent slot, before the next is refused. */
const QUEUE_PER_SLOT = 16;

type Limiter = (req: FastifyRequest) => Promise<{ isAllowed: boolean; isExceeded?: boolean; ttlInSeconds?: number; max?: number }>;

/**
 * What a limiter reads: `ip` (its key) and `routeOptions` (for a group id, which we do not use), of
 * a Fastify request or of just an address (a WebSocket subscription).
 */
type Subject = Pick<FastifyRequest, 'ip'> & { routeOptions: Partial<FastifyRequest['routeOptions']> };

export class Budgets {
  readonly gate: WorkGate;
  readonly streams: LiveSlots;
  readonly sockets: LiveSlots;
  readonly costlyLanes: AddressLanes;
  readonly requestLanes: AddressLanes;
  readonly refusals: RefusalPauses;
  private readonly exempt: BlockList | null;
  private readonly perAddress: Limiter | null;
  private readonly workPerClient: WorkBuckets;
  private readonly workPerAddress: WorkBuckets;

  constructor(
    app: FastifyInstance | null,
    private readonly known: KnownCredentials,
    readonly settings: BudgetSettings,
  ) {
    const make = (max: number, key: (req: FastifyRequest) => string): Limiter | null => {
      if (max <= 0) return null;
      if (!app) throw new Error('budgets need @fastify/rate-limit registered');
      // Each limiter has its own counters (a child store: 10,000 keys, least recently used out first).
      // No allow list: the probes never reach these (the caller decides what is charged).
      const options = { max, timeWindow: 60_000, keyGenerator: key, allowList: [], cache: 10_000 };
      return app.createRateLimit(options) as Limiter;
    };
    this.exempt = addressList(settings.exempt);
    this.perAddress = make(settings.perAddressPerMinute, (req) => `ip:${req.ip}`);
    this.workPerClient = new WorkBuckets(settings.workPerMinute, settings.workBurstSeconds);
    this.workPerAddress = new WorkBuckets(settings.workPerAddressPerMinute, settings.workBurstSeconds);
    this.refusals = new RefusalPauses(settings.refusalPauseMs ?? 0);
    this.gate = new WorkGate(settings.expensiveAtOnce, settings.expensiveAtOnce * QUEUE_PER_SLOT);
    this.streams = new LiveSlots(settings.streamsPerAddress, 'live streams (NDJSON and SSE streams, GraphQL subscriptions)');
    this.sockets = new LiveSlots(settings.socketsPerAddress, 'WebSocket connections');
    this.costlyLanes = new AddressLanes(settings.costlyAtOncePerAddress ?? 0, COSTLY_QUEUE);
    this.requestLanes = new AddressLanes(settings.requestsAtOncePerAddress ?? 0, REQUEST_QUEUE, (a, q) =>
      problems.tooManyRequestsAtOnce(a, q, AT_ONCE_RETRY_AFTER_S),
    );
  }

  /**
   * Waits for the request's turn among its address's costly requests (./address-lanes.ts); the
   * turn is given back when the answer is sent or the request aborted (releaseCostly). Once per
   * request: a GraphQL document's aliases share one turn.
   */
  async costly(req: FastifyRequest): Promise<void> {
    const r = req as FastifyRequest & { [RELEASE]?: () => void };
    if (r[RELEASE] || this.costlyLanes.atOnce <= 0) return;
    r[RELEASE] = await this.costlyLanes.enter(req.ip);
  }

  /** Gives back the request's costly turn, if it holds one (onResponse, onRequestAbort). */
  releaseCostly(req: FastifyRequest): void {
    (req as FastifyRequest & { [RELEASE]?: () => void })[RELEASE]?.();
  }

  /**
   * Waits for the request's turn among all its address's requests (a burst of a hundred writes
   * from one address takes a few pooled connections, not all of them); the turn is given back
   * with the answer, on an abort, or when the request becomes a live stream (releaseRequest).
   */
  async enterRequest(req: FastifyRequest): Promise<void> {
    const r = req as FastifyRequest & { [REQUEST_RELEASE]?: () => void };
    if (r[REQUEST_RELEASE] || this.requestLanes.atOnce <= 0) return;
    r[REQUEST_RELEASE] = await this.requestLanes.enter(req.ip);
  }

  /** Gives back the request's turn of its address's lane, if it holds one. */
  releaseRequest(req: FastifyRequest): void {
    (req as FastifyRequest & { [REQUEST_RELEASE]?: () => void })[REQUEST_RELEASE]?.();
  }

  /** Whether the request ceilings leave `address` uncounted (EXEMPT_ADDRESSES). */
  isExempt(address: string): boolean {
    return this.exempt?.check(address, isIPv6(address) ? 'ipv6' : 'ipv4') ?? false;
  }

  /** Counts one request against its address's ceiling; throws rate-limited (Retry-After set on `reply`) over it. */
  async request(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (this.isExempt(req.ip)) return;
    await this.charge(this.perAddress, req, reply, 'requests per minute from one address');
  }

  /** Counts one GraphQL subscription against its address's ceiling (a WebSocket has no request per message). */
  async subscription(address: string): Promise<void> {
    if (this.isExempt(address)) return;
    await this.charge(this.perAddress, { ip: address, routeOptions: {} }, null, 'requests per minute from one address');
  }

  /** Counts one GraphQL query or mutation sent over a WebSocket against its address's ceiling, as one HTTP request. */
  async operation(address: string): Promise<void> {
    await this.subscription(address);
  }

  /** What a request's costly work is charged to: its client's and its address's work budgets. */
  work(req: FastifyRequest): ChargeWork {
    // The client's key (a token hash) is worked out only when something is charged: not on every move.
    return (units) => this.workOf(clientKey(req, this.known), req.ip)(units);
  }

  /** The same for a GraphQL operation over a WebSocket: the connection's credential and address. */
  workFor(address: string, token: string | null | undefined): ChargeWork {
    // Lazily too: every query or mutation over a socket (a bot's every move) gets one.
    return (units) => this.workOf(clientKeyOf(token, address, this.known), address)(units);
  }

  private workOf(client: string, address: string): ChargeWork {
    return (units) => {
      const wait = takeWork(
        [
          [this.workPerClient, client],
          [this.workPerAddress, `ip:${address}`],
        ],
        units,
        Date.now(),
      );
      if (wait === 0) return;
      const { workPerMinute: c, workPerAddressPerMinute: a } = this.settings;
      throw problems.rateLimited(
        `This costs ${units} work units; a client may spend ${c || 'unlimited'} a minute and an address ${a || 'unlimited'} (docs/api.md, Work budgets); try again in ${wait} s.`,
        wait,
      );
    };
  }

  private async charge(limiter: Limiter | null, req: Subject, reply: FastifyReply | null, what: string): Promise<void> {
    if (!limiter) return;
    const r = await limiter(req as FastifyRequest);
    if (r.isAllowed || !r.isExceeded) return;
    const wait = Math.max(1, r.ttlInSeconds ?? 1);
    reply?.header('retry-after', String(wait));
    throw problems.rateLimited(`At most ${r.max} ${what}; try again in ${wait} s.`, wait);
  }
}
