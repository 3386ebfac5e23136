/**
 * What a benchmark must undo on every exit path (child servers, temp directories, throw-away
 * databases): the steps run newest first, a failing one is reported and the rest still run, and
 * SIGINT/SIGTERM runs them and exits 130.
 */
export type Cleanup = () => Promise<void> | void;

export const cleanups: Cleanup[] = [];

let signalled = false;
/** True once SIGINT/SIGTERM arrived: its handler is cleaning up and will exit. */
export const interrupted = (): boolean => signalled;

export async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) {
    const c = cleanups.pop()!;
    try {
      await c();
    } catch (e) {
      console.error(`cleanup failed: ${(e as Error).message}`);
    }
  }
}

/** On SIGINT/SIGTERM: `first` (e.g. abort the requests in flight), every cleanup, exit 130. */
export function cleanUpOnSignals(first?: () => void): void {
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      signalled = true;
      console.error(`\n${sig}: stopping and cleaning up…`);
      first?.();
      void runCleanups().finally(() => process.exit(130));
    });
  }
}

/**
 * Runs a benchmark's `main`: a failure is reported and exits 1; every cleanup still pending runs
 * at the end, unless a signal's handler is doing it (it exits by itself).
 */
export async function runBench(name: string, main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (e) {
    if (interrupted()) await new Promise(() => {}); // the signal handler is cleaning up and will exit
    console.error(`\n${name} failed: ${(e as Error).stack ?? e}`);
    process.exitCode = 1;
  } finally {
    if (!interrupted()) await runCleanups();
  }
}
