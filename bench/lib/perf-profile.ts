/**
 * A CPU-time profile of a server process with Linux `perf` (PROFILE=perf in bench:api).
 *
 * V8's own profiler (--cpu-prof) samples on a wall-clock timer: on a loaded machine a thread
 * waiting in a system call keeps being "seen" there (a third of one profile was `writev`, which
 * perf put at a few per cent of CPU). `perf record` samples the CPU clock only while a thread
 * runs, on every thread of the process (the collector's and the compiler's helpers too). Node
 * writes its JIT symbols for perf with --perf-basic-prof-only-functions, so JavaScript frames have
 * names. Each sample is charged to its innermost JavaScript frame (the builtins and runtime calls
 * under it are that function's work), grouped by package or source folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The node flag that makes JIT frames readable to perf (the server's flag list takes it). */
export const PERF_NODE_FLAG = '--perf-basic-prof-only-functions';

export function perfAvailable(): boolean {
  const r = spawnSync('perf', ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

export interface PerfRecording {
  /** Resolves when perf has written its file (after `seconds` of recording). */
  done: Promise<void>;
  file: string;
}

/** Records `pid` for `seconds`, starting after `delayMs` (the warm-up), at 999 samples per second with call graphs. */
export function recordPerf(pid: number, delayMs: number, seconds: number): PerfRecording {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'evons-perf-')), 'perf.data');
  const done = new Promise<void>((resolve, reject) => {
    setTimeout(() => {
      const p = spawn('perf', ['record', '-F', '999', '-g', '-p', String(pid), '-o', file, '--', 'sleep', String(seconds)], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      p.stderr.on('data', (d: Buffer) => (err += String(d)));
      p.on('error', reject);
      p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`perf record exited ${code}: ${err.trim().slice(-400)}`))));
    }, delayMs);
  });
  return { done, file };
}

const AREAS: [RegExp, string][] = [
  [
    /node_modules\/(fastify|find-my-way|@fastify\/[^/]+|secure-json-parse|avvio|fast-json-stringify|light-my-request|toad-cache|fastify-plugin)\//,
    'HTTP framework (fastify and its plugins)',
  ],
  [/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[^/]+)\//, 'database driver (pg)'],
  [/node_modules\/(zod|fastify-type-provider-zod)\//, 'validation (zod)'],
  [/node_modules\/(mercurius|graphql|graphql-jit|ws|@fastify\/websocket)\//, 'GraphQL and WebSocket (mercurius, graphql-js, ws)'],
  [/node_modules\//, 'other packages'],
  [/\/dist\/(games|core)\/|\/src\/(games|core)\//, 'rules engine (src/games, src/core)'],
  [/\/dist\/http\/|\/src\/http\//, 'our HTTP layer (src/http)'],
  [/\/dist\/graphql\/|\/src\/graphql\//, 'our GraphQL layer (src/graphql)'],
  [/\/dist\/|\/src\//, 'our service and persistence (src/service, src/persistence, …)'],
  [/ node:/, 'Node (http, streams, sockets, events, timers)'],
];

export interface PerfSummary {
  samples: number;
  /** Share of all samples in the kernel (system calls: sockets, scheduling). */
  kernelShare: number;
  areas: { area: string; share: number }[];
  functions: { name: string; share: number }[];
}

/** Charges each sample to its innermost JavaScript frame's area; other threads and JS-less samples are areas of their own. */
export function summarisePerf(file: string, topFunctions = 20): PerfSummary {
  const out = spawnSync('perf', ['script', '-i', file, '-F', 'tid,ip,sym,dso'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (out.status !== 0) throw new Error(`perf script failed: ${out.stderr.slice(-400)}`);
  type Sample = { tid: number; frames: string[] };
  const samples: Sample[] = [];
  let cur: Sample | null = null;
  for (const line of out.stdout.split('\n')) {
    if (line.length === 0) continue;
    if (line[0] !== '\t' && line[0] !== ' ') {
      cur = { tid: Number(line.trim().split(/\s+/)[0]), frames: [] };
      samples.push(cur);
    } else if (cur) {
      cur.frames.push(line.trim().replace(/^[0-9a-f]+ /, ''));
    }
  }
  // The main thread is the process's own id, the lowest of its threads.
  const main = Math.min(...samples.map((s) => s.tid));
  const areas = new Map<string, number>();
  const fns = new Map<string, number>();
  let kernel = 0;
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const s of samples) {
    if (s.frames[0]?.includes('[kernel.kallsyms]')) kernel++;
    if (s.tid !== main) {
      add(areas, 'other threads (collector and compiler helpers, libuv pool)');
      continue;
    }
    const js = s.frames.find((f) => f.startsWith('JS:'));
    if (!js) {
      add(areas, 'main thread, no JavaScript frame (collector, runtime, event loop)');
      continue;
    }
    add(areas, AREAS.find(([re]) => re.test(js))?.[1] ?? 'other JavaScript');
    add(
      fns,
      js
        .replace(/^JS:[*^~]?/, '')
        .replace(/ \(.*\)$/, '')
        .replace('file://', ''),
    );
  }
  const n = Math.max(1, samples.length);
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return {
    samples: samples.length,
    kernelShare: kernel / n,
    areas: sorted(areas).map(([area, c]) => ({ area, share: c / n })),
    functions: sorted(fns)
      .slice(0, topFunctions)
      .map(([name, c]) => ({ name, share: c / n })),
  };
}

/** Removes perf's data and Node's JIT symbol map of `pid` (/tmp/perf-<pid>.map). */
export function cleanUpPerf(file: string, pid: number): void {
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  fs.rmSync(path.join(os.tmpdir(), `perf-${pid}.map`), { force: true });
  fs.rmSync(`/tmp/perf-${pid}.map`, { force: true });
}
