/**
 * What GraphQL spends of the server's budgets per address. The app passes the ones REST spends
 * too (src/http/budgets.ts), so an address's live streams, WebSockets and work count once over
 * both APIs.
 */
import type { FastifyRequest } from 'fastify';
import type { ChargeWork } from '../service/work-costs.js';

/** How many of one long-lived thing each address holds; take() refuses over the cap (too-many-streams). */
export interface AddressSlots {
  take(address: string): void;
  give(address: string): void;
}

export interface GraphqlBudgets {
  /** Live streams: a subscription is one. */
  readonly streams: AddressSlots;
  readonly sockets: AddressSlots;
  /** Counts a subscription against its address's request ceiling (rate-limited over it). */
  subscription(address: string): void;
  /** Counts a query or mutation sent over a WebSocket against its address's request ceiling, as an HTTP request is. */
  operation(address: string): void;
  /** What an HTTP request's costly fields are charged to: its client's and its address's work budgets. */
  work(req: FastifyRequest): ChargeWork;
  /** The same for an operation over a WebSocket: the connection's credential and address. */
  workFor(address: string, token: string | null | undefined): ChargeWork;
  /** Waits for an HTTP request's turn among its address's costly requests (429 too-many-at-once past the line). */
  costly(req: FastifyRequest): Promise<void>;
}
