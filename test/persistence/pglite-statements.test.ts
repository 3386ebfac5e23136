/**
 * Named statements on PGlite (src/persistence/pglite-statements.ts): prepared once, executed in
 * one protocol call, with rows exactly as PGlite.query returns them; errors surface as the same
 * database errors (a unique violation is still one), and the session goes on after them.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedStatements, type NamedQuery } from '../../src/persistence/pglite-statements.js';
import { isUniqueViolation } from '../../src/persistence/db-errors.js';

describe('PGlite named statements', () => {
  let db: PGlite;
  let named: NamedQuery;
  beforeAll(async () => {
    db = await PGlite.create('memory://');
    named = namedStatements(db);
    await db.exec(`CREATE TABLE t (id text PRIMARY KEY, n int NOT NULL, big bigint, doc jsonb, at timestamptz, ok boolean, tags text[])`);
  });
  afterAll(async () => {
    await db?.close();
  });

  const INSERT =
    'INSERT INTO t (id, n, big, doc, at, ok, tags) VALUES ($1, $2::int, $3::bigint, $4::jsonb, $5::timestamptz, $6::boolean, $7::text[]) RETURNING *';
  const SELECT = 'SELECT id, n, big, doc, at, ok, tags, n + $2::int AS sum FROM t WHERE id = $1';

  it('returns the rows PGlite.query returns, for every kind of value, on the first and later calls', async () => {
    const values = [
      'a',
      7,
      '9007199254740993',
      JSON.stringify({ x: [1, 'two', null], y: { z: true } }),
      new Date(Date.UTC(2030, 0, 2, 3, 4, 5, 6)),
      true,
      ['p', 'q r', '"s"'],
    ];
    const viaNamed = await named('ins', INSERT, values);
    await db.query('DELETE FROM t');
    const viaQuery = (await db.query(INSERT, values)).rows;
    expect(viaNamed).toEqual(viaQuery);
    for (let i = 0; i < 3; i++) {
      expect(await named('sel', SELECT, ['a', i])).toEqual((await db.query(SELECT, ['a', i])).rows);
    }
    const nulls = ['b', 1, null, null, null, null, null];
    expect(await named('ins', INSERT, nulls)).toEqual([{ id: 'b', n: 1, big: null, doc: null, at: null, ok: null, tags: null }]);
    expect(await named('sel', SELECT, ['nobody', 0])).toEqual([]);
  });

  it('a failed statement throws the database error, and the session goes on', async () => {
    const err = await named('ins', INSERT, ['a', 1, null, null, null, null, null]).catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect(await named('sel', SELECT, ['a', 0])).toHaveLength(1);
    const bad = await named('broken', 'SELEKT $1::int', [1]).catch((e: unknown) => e);
    expect(String(bad)).toMatch(/syntax error/);
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('waits for a transaction in progress instead of running inside it', async () => {
    let release!: () => void;
    let inserted!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const insertedYet = new Promise<void>((r) => (inserted = r));
    const tx = db.transaction(async (t) => {
      await t.query(`INSERT INTO t (id, n) VALUES ('in-tx', 1)`);
      inserted();
      await held;
      throw new Error('roll back');
    });
    await insertedYet;
    // Run inside the open transaction, this would see its uncommitted row.
    const outside = named('sel', SELECT, ['in-tx', 0]);
    await new Promise((r) => setTimeout(r, 20));
    release();
    await expect(tx).rejects.toThrow('roll back');
    expect(await outside).toEqual([]);
  });
});
