/**
 * What one caller may spend beyond the per-client request budget of ./rate-limit.ts:
 *
 * - a ceiling per address over every request it makes, whatever credentials it uses (match
 *   creates and token minting included) and every GraphQL subscription it starts over a
 *   WebSocket: credentials cost nothing to make, so a budget per credential alone is no limit.
 *   It is a bucket (./work-budget.ts, one unit a request) holding a couple of seconds of the
 *   minute (REQUEST_BURST_SECONDS): a one-minute window let one address send its whole minute in
 *   the first seconds, hundreds of moves a second, and slow every bystander (the isolation suite);
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
 * then the client X-Forwarded-For names. Counters and buckets live in each node's memory. A
 * setting of 0 turns its limit off.
 */
import { BlockList, isIPv6 } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
const COSTLY_TURN = Symbol('costly-turn');
/** A request's turn of its address's lane of all requests, given back the same way (or when it becomes a stream). */
const REQUEST_TURN = Symbol('request-turn');
/** A request with the turns it holds: each a function that gives it back (once; a second call does nothing). */
type Turns = FastifyRequest & { [COSTLY_TURN]?: () => void; [REQUEST_TURN]?: () => void };
/** Costly requests of one address waiting for their turn, before the next is refused. */
const COSTLY_QUEUE = 8;
/** Requests of one address waiting for their turn, before the next is refused. */
const REQUEST_QUEUE = 256;

export interface BudgetSettings {
  /** Requests per minute per address, over all its credentials (GraphQL operations over a WebSocket count too). */
  perAddressPerMinute: number;
  /** Seconds of that ceiling an address's bucket holds: the most it may send at once (default 60, a minute's). */
  requestBurstSeconds?: number;
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

export class Budgets {
  readonly gate: WorkGate;
  readonly streams: LiveSlots;
  readonly sockets: LiveSlots;
  readonly costlyLanes: AddressLanes;
  readonly requestLanes: AddressLanes;
  readonly refusals: RefusalPauses;
  private readonly exempt: BlockList | null;
  /** Each address's requests, one unit each: a bucket, so a burst is bounded as well as the minute. */
  private readonly perAddress: WorkBuckets;
  private readonly workPerClient: WorkBuckets;
  private readonly workPerAddress: WorkBuckets;

  constructor(
    private readonly known: KnownCredentials,
    readonly settings: BudgetSettings,
    /** Epoch ms (the app's clock). */
    private readonly now: () => number = Date.now,
  ) {
    this.exempt = addressList(settings.exempt);
    this.perAddress = new WorkBuckets(settings.perAddressPerMinute, settings.requestBurstSeconds);
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
   * Waits for the request's turn among its address's costly requests (./address-lanes.ts). Once
   * per request: a GraphQL document's aliases share one turn.
   */
  async costly(req: FastifyRequest): Promise<void> {
    await this.takeTurn(req, COSTLY_TURN, this.costlyLanes);
  }

  /**
   * Waits for the request's turn among all its address's requests (a burst of a hundred writes
   * from one address takes a few pooled connections, not all of them).
   */
  async enterRequest(req: FastifyRequest): Promise<void> {
    await this.takeTurn(req, REQUEST_TURN, this.requestLanes);
  }

  /** Gives back the request's turn among all its address's requests: it became a live stream, which its own cap counts. */
  releaseRequest(req: FastifyRequest): void {
    (req as Turns)[REQUEST_TURN]?.();
  }

  /** Gives back every turn the request holds (its answer was sent, or it was aborted). */
  releaseTurns(req: FastifyRequest): void {
    (req as Turns)[COSTLY_TURN]?.();
    (req as Turns)[REQUEST_TURN]?.();
  }

  private async takeTurn(req: FastifyRequest, turn: typeof COSTLY_TURN | typeof REQUEST_TURN, lanes: AddressLanes): Promise<void> {
    const r = req as Turns;
    if (r[turn] || lanes.atOnce <= 0) return;
    r[turn] = await lanes.enter(req.ip);
  }

  /** Whether the request ceilings leave `address` uncounted (EXEMPT_ADDRESSES). */
  isExempt(address: string): boolean {
    return this.exempt?.check(address, isIPv6(address) ? 'ipv6' : 'ipv4') ?? false;
  }

  /** Counts one request against its address's ceiling; throws rate-limited (Retry-After set on `reply`) over it. */
  request(req: FastifyRequest, reply: FastifyReply): void {
    this.countRequest(req.ip, reply);
  }

  /** Counts one GraphQL subscription against its address's ceiling (a WebSocket has no request per message). */
  subscription(address: string): void {
    this.countRequest(address, null);
  }

  /** Counts one GraphQL query or mutation sent over a WebSocket against its address's ceiling, as one HTTP request. */
  operation(address: string): void {
    this.countRequest(address, null);
  }

  private countRequest(address: string, reply: FastifyReply | null): void {
    if (this.isExempt(address)) return;
    const wait = takeWork([[this.perAddress, `ip:${address}`]], 1, this.now());
    if (wait === 0) return;
    reply?.header('retry-after', String(wait));
    const { perMinute, capacity } = this.perAddress;
    throw problems.rateLimited(
      `At most ${perMinute} requests a minute from one address, ${Math.floor(capacity)} at once; try again in ${wait} s.`,
      wait,
    );
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
        this.now(),
      );
      if (wait === 0) return;
      const { workPerMinute: c, workPerAddressPerMinute: a } = this.settings;
      throw problems.rateLimited(
        `This costs ${units} work units; a client may spend ${c || 'unlimited'} a minute and an address ${a || 'unlimited'} (docs/api.md, Work budgets); try again in ${wait} s.`,
        wait,
      );
    };
  }
}
