/** Summarises a V8 .cpuprofile (from node --cpu-prof): top functions by self time. */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface SelfTime {
  name: string;
  where: string;
  ms: number;
  share: number;
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  return url.replace(/^file:\/\//, '') || '(native)';
}

/** Self time per function (name + file + line), and per package / area. */
/**
 * `window`: only samples whose time (V8 TimeTicks, µs, CLOCK_MONOTONIC on Linux — the same clock as
 * process.hrtime) lies in [from, to]. `windowed` says whether any sample matched (else all are used).
 */
export function summariseCpuProfile(
  file: string,
  top = 25,
  window?: { fromUs: number; toUs: number },
): { total: number; functions: SelfTime[]; areas: SelfTime[]; windowed: boolean } {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let windowed = false;
  const collect = (useWindow: boolean) => {
    selfUs.clear();
    if (!p.samples || !p.timeDeltas) return;
    let t = p.startTime;
    for (let i = 0; i < p.samples.length; i++) {
      t += p.timeDeltas[i] ?? 0;
      if (useWindow && window && (t < window.fromUs || t > window.toUs)) continue;
      const id = p.samples[i]!;
      selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i + 1] ?? 0));
      if (useWindow) windowed = true;
    }
  };
  collect(window !== undefined);
  if (!windowed) collect(false);
  let total = 0;
  const fn = new Map<string, { name: string; where: string; us: number }>();
  const area = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    if (!n) continue;
    total += us;
    const name = n.callFrame.functionName || '(anonymous)';
    const where = `${shortUrl(n.callFrame.url)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
    const key = `${name}@${where}`;
    const e = fn.get(key) ?? { name, where, us: 0 };
    e.us += us;
    fn.set(key, e);
    area.set(areaOf(n.callFrame.url, name), (area.get(areaOf(n.callFrame.url, name)) ?? 0) + us);
  }
  const functions = [...fn.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({ name: e.name, where: e.where, ms: e.us / 1000, share: e.us / total }));
  const areas = [...area.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, us]) => ({ name: k, where: '', ms: us / 1000, share: us / total }));
  return { total: total / 1000, functions, areas, windowed };
}

function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native/builtin)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const src = url.indexOf('/src/');
  if (src >= 0) {
    const parts = url.slice(src + 1).split('/');
    return parts.slice(0, Math.min(parts.length - 1, 2)).join('/') || parts.join('/');
  }
  if (url.startsWith('node:')) return 'node internals';
  return url;
}
