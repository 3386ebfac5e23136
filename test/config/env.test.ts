/** The environment's settings as the server reads them (src/config/env.ts). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/config/env.js';

describe('DATA_DIR', () => {
  it('memory:// stays PGlite\'s in-memory database (it once became a directory named "memory:")', () => {
    const r = loadEnv({ DATA_DIR: 'memory://' });
    expect(r.ok && r.config.database).toEqual({ kind: 'pglite', dataDir: 'memory://' });
  });

  it('a directory is resolved to an absolute path; DATABASE_URL wins over it', () => {
    const r = loadEnv({ DATA_DIR: 'some/dir' });
    expect(r.ok && r.config.database).toEqual({ kind: 'pglite', dataDir: path.resolve('some/dir') });
    const pg = loadEnv({ DATA_DIR: 'some/dir', DATABASE_URL: 'postgresql://u@h/db' });
    expect(pg.ok && pg.config.database.kind).toBe('postgres');
  });
});
