/** Runs `npm run verify`'s script (scripts/verify.ts) on a file, as a child process: its exit code and output. */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);

export function runVerify(file: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((done, fail) => {
    // tsx as a loader in one node process (the tsx command starts a second one to run the script).
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/verify.ts'), file], { cwd: ROOT });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout }));
  });
}
