/**
 * One migrated PGlite data directory for the whole test run. A new in-memory PGlite runs initdb
 * and then every migration: measured, that is most of the cost of opening one (seconds on a
 * loaded 2-core machine), and the suites open dozens. vitest's global setup (test/global-setup.ts)
 * builds the database once, dumps its data directory (PGlite's dumpDataDir) to a file and
 * provides the file's path; memoryDatabase() returns an in-memory config that starts from that
 * dump (DatabaseConfig's loadDataDir), so openStore finds every migration applied and only checks
 * the checksums. Each database is still its own: the dump is copied, never shared.
 *
 * Run outside that setup (another config, a script), memoryDatabase() is a plain `memory://`.
 * The migration suite itself opens empty databases (backends' fresh()), never the template.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import type { DatabaseConfig } from '../../src/persistence/database.js';
import { openStore } from '../../src/persistence/match-store.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated PGlite data directory dump; '' when there is none. */
    pgliteTemplate: string;
  }
}

/** Migrates a new database the way the server does (openStore) and writes its data directory dump to `file`. */
export async function writeTemplate(file: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'evons-pglite-template-'));
  const dataDir = path.join(dir, 'data');
  try {
    const opened = await openStore({ kind: 'pglite', dataDir });
    await opened.close();
    const client = await PGlite.create(dataDir);
    try {
      const dump = await client.dumpDataDir('none');
      fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await client.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

let template: Blob | null | undefined;

function loadTemplate(): Blob | null {
  if (template !== undefined) return template;
  let file = '';
  try {
    file = inject('pgliteTemplate') ?? '';
  } catch {
    // not inside a vitest worker
  }
  template = file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : null;
  return template;
}

/** A fresh in-memory PGlite database, already migrated when the run has a template. */
export function memoryDatabase(): Extract<DatabaseConfig, { kind: 'pglite' }> {
  const t = loadTemplate();
  return t ? { kind: 'pglite', dataDir: 'memory://', loadDataDir: t } : { kind: 'pglite', dataDir: 'memory://' };
}
