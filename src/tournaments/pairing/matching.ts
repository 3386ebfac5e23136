/**
 * Edmonds' blossom search for an augmenting path in a general graph, used to decide whether the
 * players still to be paired can all be paired (Berge: a matching is maximum iff no augmenting
 * path exists). Monrad's "backtrack when the rest cannot be paired" then needs no exponential
 * search: the Swiss pairer asks this oracle instead. Vertices are 0..n-1; `alive` restricts the
 * graph to the players still unpaired; `edge(u, v)` says whether u and v may meet.
 */

export class Matcher {
  /** match[v]: v's partner, or -1. */
  readonly match: Int32Array;
  private readonly parent: Int32Array;
  private readonly base: Int32Array;
  private readonly used: Uint8Array;
  private readonly blossom: Uint8Array;
  private readonly queue: Int32Array;
  private readonly seen: Uint8Array;

  constructor(
    private readonly n: number,
    private readonly edge: (u: number, v: number) => boolean,
    readonly alive: Uint8Array,
  ) {
    this.match = new Int32Array(n).fill(-1);
    this.parent = new Int32Array(n);
    this.base = new Int32Array(n);
    this.used = new Uint8Array(n);
    this.blossom = new Uint8Array(n);
    this.queue = new Int32Array(n);
    this.seen = new Uint8Array(n);
  }

  /** Lowest common ancestor of a and b's bases in the alternating tree. */
  private lca(a: number, b: number): number {
    const seen = this.seen;
    seen.fill(0);
    for (;;) {
      a = this.base[a]!;
      seen[a] = 1;
      if (this.match[a] === -1) break;
      a = this.parent[this.match[a]!]!;
    }
    for (;;) {
      b = this.base[b]!;
      if (seen[b]) return b;
      b = this.parent[this.match[b]!]!;
    }
  }

  private markPath(v: number, b: number, child: number): void {
    while (this.base[v] !== b) {
      this.blossom[this.base[v]!] = 1;
      this.blossom[this.base[this.match[v]!]!] = 1;
      this.parent[v] = child;
      child = this.match[v]!;
      v = this.parent[this.match[v]!]!;
    }
  }

  /** Flips the alternating path from the root to the newly reached exposed vertex `end`. */
  private flip(end: number): void {
    const { match, parent } = this;
    let u = end;
    while (u !== -1) {
      const pu = parent[u]!;
      const next = match[pu]!;
      match[u] = pu;
      match[pu] = u;
      u = next;
    }
  }

  /** Looks for an augmenting path from the exposed vertex `root`; augments along it if found. */
  augment(root: number): boolean {
    const { n, match, parent, base, used, blossom, queue, alive } = this;
    parent.fill(-1);
    used.fill(0);
    for (let i = 0; i < n; i++) base[i] = i;
    // The other exposed vertices. Every vertex is tried against them as soon as it becomes outer
    // (Edmonds' search is correct in any edge order): in the near-complete graphs of a Swiss event
    // the path is then found before the scan meets, and contracts, blossom after blossom.
    const exposed: number[] = [];
    for (let i = 0; i < n; i++) if (alive[i] && match[i] === -1 && i !== root) exposed.push(i);
    const reaches = (v: number): boolean => {
      for (const e of exposed) {
        if (this.edge(v, e)) {
          parent[e] = v;
          this.flip(e);
          return true;
        }
      }
      return false;
    };
    used[root] = 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    if (reaches(root)) return true;
    while (head < tail) {
      const v = queue[head++]!;
      for (let to = 0; to < n; to++) {
        if (!alive[to] || to === v || base[v] === base[to] || match[v] === to || !this.edge(v, to)) continue;
        if (to === root || (match[to] !== -1 && parent[match[to]!] !== -1)) {
          // An odd cycle: contract it into its base and keep searching from every vertex in it.
          const cur = this.lca(v, to);
          blossom.fill(0);
          this.markPath(v, cur, to);
          this.markPath(to, cur, v);
          for (let i = 0; i < n; i++) {
            if (!alive[i] || !blossom[base[i]!]) continue;
            base[i] = cur;
            if (!used[i]) {
              used[i] = 1;
              queue[tail++] = i;
              if (reaches(i)) return true;
            }
          }
        } else if (parent[to] === -1) {
          parent[to] = v;
          if (match[to] === -1) {
            this.flip(to);
            return true;
          }
          used[match[to]!] = 1;
          queue[tail++] = match[to]!;
          if (reaches(match[to]!)) return true;
        }
      }
    }
    return false;
  }
}
