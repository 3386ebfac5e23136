/**
 * Problems raised before a request reaches a route: the HTTP parser's (oversized headers, bad
 * request lines, timeouts: Node's `clientError`) and the router's (a bad URL encoding, a path
 * parameter past the router's limit). Both answer in the same application/problem+json shape as
 * every other error, instead of Node's bare status line or Fastify's own JSON.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { problem as problemOf, type Problem } from './problem-details.js';
import { sendProblem } from './problems.js';

function problem(status: number, code: string, title: string, detail: string): Problem {
  return problemOf({ status, code, title, detail });
}

/** For Fastify's `clientErrorHandler`: writes a problem to the raw socket and closes it. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const p =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? problem(431, 'headers-too-large', 'Request header fields too large', 'The request headers exceed the server limit (16 KiB in all).')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? problem(408, 'request-timeout', 'Request timeout', 'The request was not received in time.')
        : problem(400, 'bad-request', 'Bad request', 'The request could not be parsed as HTTP.');
  const body = JSON.stringify(p);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${p.status} ${STATUS_CODES[p.status]}\r\n` +
        'Content-Type: application/problem+json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/** For Fastify's `frameworkErrors`: the router's own rejections as problems. */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const p =
    err.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? problem(414, 'uri-too-long', 'URI too long', 'A path segment is longer than the server accepts.')
      : err.code === 'FST_ERR_BAD_URL'
        ? problem(400, 'bad-url', 'Bad URL', 'The path is not a valid URL (bad percent-encoding).')
        : problem(400, 'bad-request', 'Bad request', 'The request could not be routed.');
  void sendProblem(reply, p);
}
