/**
 * One webhook POST: http(s) only, 5 s in all (the worker may set another limit), at most a few KB of the answer read. Unless private
 * addresses are allowed (development, tests), the host must resolve to public addresses only, and
 * the check happens in the connection's own DNS lookup, so a name cannot pass the check and then
 * connect somewhere else (DNS rebinding).
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

const TIMEOUT_MS = 5_000;
const MAX_ANSWER_BYTES = 4_096;

/** Addresses a webhook may not reach from a production server (RFC 6890 special-purpose ranges). */
const PRIVATE = new net.BlockList();
for (const [a, p] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(a, p, 'ipv4');
for (const [a, p] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
] as const) {
  PRIVATE.addSubnet(a, p, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as the IPv4 one.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4');
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Why a URL cannot be a webhook endpoint, or null. Names are resolved at send time. */
export function urlProblem(raw: string, allowPrivate: boolean): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return 'not a URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'only http and https URLs';
  if (u.username || u.password) return 'no credentials in the URL';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && net.isIP(host) && isPrivateAddress(host)) return 'the address is not public';
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) return 'the address is not public';
  return null;
}

function publicLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'EPRIVATE' }), '', 0);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

export interface PostResult {
  statusCode: number | null;
  error: string | null;
}

export function postJson(
  url: string,
  body: string,
  headers: Record<string, string>,
  allowPrivate: boolean,
  timeoutMs = TIMEOUT_MS,
): Promise<PostResult> {
  const problem = urlProblem(url, allowPrivate);
  if (problem) return Promise.resolve({ statusCode: null, error: problem });
  const u = new URL(url);
  const client = u.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: PostResult) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const req = client.request(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        ...(allowPrivate ? {} : { lookup: publicLookup }),
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // The answer is not ours to keep: stop reading after a few KB.
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const finish = () => done({ statusCode: res.statusCode ?? null, error: null });
        res.on('end', finish);
        // A response torn down before its end (our 5 s limit) is an error, not an answer.
        res.on('close', () =>
          res.complete || read > MAX_ANSWER_BYTES
            ? finish()
            : done({ statusCode: null, error: `no complete answer within ${timeoutMs / 1000} s` }),
        );
        res.on('error', finish);
      },
    );
    // 5 s in all, not 5 s of silence: a receiver trickling its answer is cut off too.
    const deadline = setTimeout(() => req.destroy(new Error(`no complete answer within ${timeoutMs / 1000} s`)), timeoutMs);
    req.on('error', (e) => done({ statusCode: null, error: e.message.slice(0, 200) }));
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });
}
