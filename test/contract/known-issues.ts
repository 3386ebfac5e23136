/**
 * Known failures the contract fuzz tolerates until their fixes are merged; each entry matches only
 * the requests its fix covers, and the run prints how often each was hit. Delete an entry when its
 * fix lands (and this file, with its use in fuzz.test.ts, when the list is empty).
 */

export interface FuzzRequest {
  operationId: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: { raw: string; contentType: string } | undefined;
}

export interface KnownIssue {
  name: string;
  matches(req: FuzzRequest, status: number): boolean;
}

export const KNOWN_ISSUES: KnownIssue[] = [
  {
    name:
      'stream: with nothing to send yet (an open seat, or after ≥ version) GET …/stream sends no status line or ' +
      'headers until the first 15 s keep-alive (the response is flushed only with its first line)',
    matches: (req, status) => status === 0 && req.operationId === 'streamEvents',
  },
];
