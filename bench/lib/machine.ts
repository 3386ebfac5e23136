/** Machine CPU accounting from /proc (Linux): who used the cores during a measured window. */
import fs from 'node:fs';
import os from 'node:os';

const HZ = 100; // USER_HZ

/** Busy and total CPU time of the whole machine (ms, all cores summed). */
function machineTimes(): { busy: number; total: number } {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const f = line.trim().split(/\s+/).slice(1).map(Number);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: ((total - idle) * 1000) / HZ, total: (total * 1000) / HZ };
  } catch {
    return { busy: Number.NaN, total: Number.NaN };
  }
}

/** CPU time (ms) of every process whose comm is `name` (e.g. the PostgreSQL server processes). */
function cpuOfCommand(name: string): number {
  let ms = 0;
  try {
    for (const d of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        if (comm !== name) continue;
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        ms += ((Number(f[11]) + Number(f[12])) * 1000) / HZ;
      } catch {
        // the process ended meanwhile
      }
    }
  } catch {
    return Number.NaN;
  }
  return ms;
}

export interface CpuSnapshot {
  at: number;
  machine: { busy: number; total: number };
  postgres: number;
}

export function snapshot(): CpuSnapshot {
  return { at: performance.now(), machine: machineTimes(), postgres: cpuOfCommand('postgres') };
}

export interface CpuWindow {
  cores: number;
  /** Whole machine busy, in cores (0..cores). */
  machineBusy: number;
  /** PostgreSQL processes, in cores. Note: processes that exited in the window are missed. */
  postgres: number;
}

export function cpuBetween(a: CpuSnapshot, b: CpuSnapshot): CpuWindow {
  const wall = b.at - a.at;
  return {
    cores: os.cpus().length,
    machineBusy: (b.machine.busy - a.machine.busy) / wall,
    postgres: (b.postgres - a.postgres) / wall,
  };
}

export const loadAverage = (): string =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** CPU used over a benchmark's measured window: the server's, this process's and the machine's. */
export interface MeasuredCpu {
  serverCpuMs: number;
  benchCpuMs: number;
  machine: CpuWindow | null;
}

/**
 * Reads CPU at `fromMs` and again at `toMs` (both from now) and hands the difference to `on.end`;
 * `on.start` runs right after the first reading. `cancel` clears both timers.
 */
export function measureCpuWindow(
  serverCpuMs: () => number,
  fromMs: number,
  toMs: number,
  on: { start?: () => void; end: (cpu: MeasuredCpu) => void },
): { cancel(): void } {
  let start: { server: number; bench: NodeJS.CpuUsage; machine: CpuSnapshot | null } = {
    server: Number.NaN,
    bench: process.cpuUsage(),
    machine: null,
  };
  const startTimer = setTimeout(() => {
    start = { server: serverCpuMs(), bench: process.cpuUsage(), machine: snapshot() };
    on.start?.();
  }, fromMs);
  const endTimer = setTimeout(() => {
    const b = process.cpuUsage(start.bench);
    on.end({
      serverCpuMs: serverCpuMs() - start.server,
      benchCpuMs: (b.user + b.system) / 1000,
      machine: start.machine ? cpuBetween(start.machine, snapshot()) : null,
    });
  }, toMs);
  return {
    cancel() {
      clearTimeout(startTimer);
      clearTimeout(endTimer);
    },
  };
}
