/** Latency samples and formatting for the benchmarks. */

export class Samples {
  private values: number[] = [];
  /** Samples holding `xs` (a copy). */
  static of(xs: readonly number[]): Samples {
    const s = new Samples();
    s.values = [...xs];
    return s;
  }
  add(ms: number): void {
    this.values.push(ms);
  }
  /** Every sample, in the order added (a copy). */
  all(): number[] {
    return [...this.values];
  }
  get count(): number {
    return this.values.length;
  }
  /** Nearest-rank percentile (p in 0..100); NaN when empty. */
  percentile(p: number): number {
    if (this.values.length === 0) return Number.NaN;
    const sorted = this.sorted();
    const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
    return sorted[rank - 1]!;
  }
  mean(): number {
    if (this.values.length === 0) return Number.NaN;
    return this.values.reduce((a, b) => a + b, 0) / this.values.length;
  }
  max(): number {
    return this.values.length === 0 ? Number.NaN : this.sorted()[this.values.length - 1]!;
  }
  private cache: number[] | null = null;
  private cacheLen = -1;
  private sorted(): number[] {
    if (this.cache && this.cacheLen === this.values.length) return this.cache;
    this.cache = [...this.values].sort((a, b) => a - b);
    this.cacheLen = this.values.length;
    return this.cache;
  }
}

export const fmtInt = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
export const fmtMs = (n: number): string => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0)) : '–');

/** A plain text table: first row is the header. */
export function table(rows: string[][], indent = '  '): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const line = (r: string[]) => indent + r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  const out = [line(rows[0]!), indent + widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const r of rows.slice(1)) out.push(line(r));
  return out.join('\n');
}
