/** The environment's settings as the server reads them (src/config/env.ts). */
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/config/env.js';
import { DEFAULT_RATED_MIN_DECISIONS } from '../../src/service/accounts/ratings.js';

describe('DATA_DIR', () => {
  it('memory:// stays PGlite\'s in-memory database (it once became a directory named "memory:")', () => {
    const r = loadEnv({ DATA_DIR: 'memory://' });
    expect(r.ok && r.config.database).toEqual({ kind: 'pglite', dataDir: 'memory://' });
  });

  it('a directory is passed on as written (the store resolves it: test/persistence/dir-lock.test.ts); DATABASE_URL wins over it', () => {
    const r = loadEnv({ DATA_DIR: 'some/dir' });
    expect(r.ok && r.config.database).toEqual({ kind: 'pglite', dataDir: 'some/dir' });
    const pg = loadEnv({ DATA_DIR: 'some/dir', DATABASE_URL: 'postgresql://u@h/db' });
    expect(pg.ok && pg.config.database.kind).toBe('postgres');
  });

  it('PostgreSQL: the pool size and lock timeout come from DB_POOL_SIZE and DB_LOCK_TIMEOUT_MS (defaults 10 and 5 s)', () => {
    const d = loadEnv({ DATABASE_URL: 'postgresql://u@h/db' });
    expect(d.ok && d.config.database).toMatchObject({ kind: 'postgres', maxConnections: 10, lockTimeoutMs: 5_000 });
    const set = loadEnv({ DATABASE_URL: 'postgresql://u@h/db', DB_POOL_SIZE: '25', DB_LOCK_TIMEOUT_MS: '0' });
    expect(set.ok && set.config.database).toMatchObject({ maxConnections: 25, lockTimeoutMs: 0 });
    expect(loadEnv({ DB_POOL_SIZE: '0' }).ok).toBe(false);
  });
});

describe('CORS_ORIGINS', () => {
  it('is * (any origin) by default and when empty', () => {
    for (const env of [{}, { CORS_ORIGINS: '' }]) {
      const r = loadEnv(env);
      expect(r.ok && r.config.corsOrigins).toBe('*');
    }
  });

  it('takes none, or a comma-separated list of origins', () => {
    const none = loadEnv({ CORS_ORIGINS: 'none' });
    expect(none.ok && none.config.corsOrigins).toBe('none');
    const some = loadEnv({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' });
    expect(some.ok && some.config.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it.each([
    ['a trailing slash (browsers send none: it would never match)', 'https://app.example.com/', 'did you mean https://app.example.com?'],
    ['a path', 'https://app.example.com/play', 'did you mean https://app.example.com?'],
    ['upper case', 'https://App.example.com', 'did you mean https://app.example.com?'],
    ['a default port', 'https://app.example.com:443', 'did you mean https://app.example.com?'],
    ['no scheme', 'app.example.com', 'is not an origin'],
    ['the null origin', 'null', 'is not an origin'],
    ['another scheme', 'file:///tmp', 'is not an origin'],
    ['* among origins', '*, https://app.example.com', 'is not an origin'],
    ['only commas', ',', 'no origin given'],
  ])('refuses %s, naming the variable', (_what, value, message) => {
    const r = loadEnv({ CORS_ORIGINS: value });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toMatch(new RegExp(`^CORS_ORIGINS: .*${message.replace(/[.?*]/g, '\\$&')}`, 'm'));
  });
});

describe('webhook settings (issue 21 #6, #10)', () => {
  it('WEBHOOK_ALLOW_PRIVATE is an explicit opt-in: false unless set to true, in development as in production', () => {
    for (const env of [
      {},
      { NODE_ENV: 'development' },
      { NODE_ENV: 'test' },
      { NODE_ENV: 'production' },
      { WEBHOOK_ALLOW_PRIVATE: 'false' },
      { WEBHOOK_ALLOW_PRIVATE: '' },
    ]) {
      const r = loadEnv(env);
      expect(r.ok && r.config.webhookAllowPrivate, JSON.stringify(env)).toBe(false);
    }
    for (const NODE_ENV of ['development', 'production']) {
      const r = loadEnv({ NODE_ENV, WEBHOOK_ALLOW_PRIVATE: 'true' });
      expect(r.ok && r.config.webhookAllowPrivate).toBe(true);
    }
  });

  it('endpoints per seat, redeliveries and delivery concurrency have documented defaults (5, 3, 64) and can be set', () => {
    const d = loadEnv({});
    expect(d.ok && [d.config.webhookMaxPerSeat, d.config.webhookMaxRedeliveries, d.config.webhookConcurrency]).toEqual([5, 3, 64]);
    const s = loadEnv({ WEBHOOK_MAX_PER_SEAT: '2', WEBHOOK_MAX_REDELIVERIES: '0', WEBHOOK_CONCURRENCY: '8' });
    expect(s.ok && [s.config.webhookMaxPerSeat, s.config.webhookMaxRedeliveries, s.config.webhookConcurrency]).toEqual([2, 0, 8]);
    expect(loadEnv({ WEBHOOK_MAX_PER_SEAT: '0' }).ok).toBe(false);
  });

  it('account webhooks per player have a documented default (5) and can be set (1 … 100)', () => {
    const d = loadEnv({});
    expect(d.ok && d.config.webhookMaxPerAccount).toBe(5);
    const s = loadEnv({ WEBHOOK_MAX_PER_ACCOUNT: '2' });
    expect(s.ok && s.config.webhookMaxPerAccount).toBe(2);
    expect(loadEnv({ WEBHOOK_MAX_PER_ACCOUNT: '0' }).ok).toBe(false);
    expect(loadEnv({ WEBHOOK_MAX_PER_ACCOUNT: '101' }).ok).toBe(false);
  });
});

describe('limits', () => {
  it('the per-address limits have their documented defaults, and 0 turns each off', () => {
    const r = loadEnv({});
    expect(r.ok && r.config.budgets).toEqual({
      perAddressPerMinute: 12_000,
      requestBurstSeconds: 2,
      workPerMinute: 6_000,
      workPerAddressPerMinute: 12_000,
      expensiveAtOnce: 2,
      streamsPerAddress: 200,
      socketsPerAddress: 100,
      costlyAtOncePerAddress: 1,
      requestsAtOncePerAddress: 8,
      workBurstSeconds: 2,
      refusalPauseMs: 1000,
      exempt: [],
    });
    const off = loadEnv({
      RATE_LIMIT_PER_ADDRESS_PER_MINUTE: '0',
      WORK_UNITS_PER_MINUTE: '0',
      WORK_UNITS_PER_ADDRESS_PER_MINUTE: '0',
      EXPENSIVE_READS_AT_ONCE: '0',
      LIVE_STREAMS_PER_ADDRESS: '0',
      WEBSOCKETS_PER_ADDRESS: '0',
      COSTLY_AT_ONCE_PER_ADDRESS: '0',
      REQUESTS_AT_ONCE_PER_ADDRESS: '0',
      REFUSAL_PAUSE_MS: '0',
    });
    const { workBurstSeconds, requestBurstSeconds, exempt, ...limits } = off.ok
      ? off.config.budgets
      : { workBurstSeconds: 0, requestBurstSeconds: 0, exempt: null };
    expect(off.ok && Object.values(limits).every((v) => v === 0)).toBe(true);
    expect([workBurstSeconds, requestBurstSeconds, exempt]).toEqual([2, 2, []]);
    // A burst is at least a second of the budget and at most a minute of it.
    for (const name of ['WORK_BURST_SECONDS', 'REQUEST_BURST_SECONDS']) {
      expect(loadEnv({ [name]: '0' }).ok).toBe(false);
      expect(loadEnv({ [name]: '61' }).ok).toBe(false);
    }
    expect(loadEnv({ LIVE_STREAMS_PER_ADDRESS: '-1' }).ok).toBe(false);
  });

  it('TRUST_PROXY: unset or false trusts nobody, true any proxy, else a list of addresses and ranges', () => {
    const trust = (v?: string) => {
      const r = loadEnv(v === undefined ? {} : { TRUST_PROXY: v });
      return r.ok ? r.config.trustProxy : 'invalid';
    };
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('RATE_LIMIT_EXEMPT: a list of addresses and CIDR ranges, checked', () => {
    const exempt = (v: string) => {
      const r = loadEnv({ RATE_LIMIT_EXEMPT: v });
      return r.ok ? r.config.budgets.exempt : r.errors;
    };
    expect(exempt('127.0.0.2, 10.1.0.0/16,::1,fd00::/8')).toEqual(['127.0.0.2', '10.1.0.0/16', '::1', 'fd00::/8']);
    for (const bad of ['localhost', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129', '10.0.0.0/x']) {
      expect(exempt(bad), bad).toEqual([expect.stringContaining('RATE_LIMIT_EXEMPT')]);
    }
  });
});

describe('SHUTDOWN_DRAIN_MS', () => {
  it('defaults to 2 s, may be 0, and must stay below SHUTDOWN_TIMEOUT_MS', () => {
    const d = loadEnv({});
    expect(d.ok && [d.config.shutdownDrainMs, d.config.shutdownTimeoutMs]).toEqual([2000, 8000]);
    const off = loadEnv({ SHUTDOWN_DRAIN_MS: '0' });
    expect(off.ok && off.config.shutdownDrainMs).toBe(0);
    const over = loadEnv({ SHUTDOWN_DRAIN_MS: '8000' });
    expect(over.ok ? [] : over.errors).toEqual(['SHUTDOWN_DRAIN_MS: must be below SHUTDOWN_TIMEOUT_MS (8000)']);
  });
});

describe('REMATCH_OFFER_TTL_SECONDS', () => {
  it('defaults to one day, and is 1 s to 30 days', () => {
    const d = loadEnv({});
    expect(d.ok && d.config.rematchOfferTtlSeconds).toBe(86_400);
    const set = loadEnv({ REMATCH_OFFER_TTL_SECONDS: '600' });
    expect(set.ok && set.config.rematchOfferTtlSeconds).toBe(600);
    expect(loadEnv({ REMATCH_OFFER_TTL_SECONDS: '0' }).ok).toBe(false);
    expect(loadEnv({ REMATCH_OFFER_TTL_SECONDS: String(31 * 86_400) }).ok).toBe(false);
  });
});

describe('RATED_MIN_DECISIONS', () => {
  it('defaults to the service default (3), and 0 turns the minimum off', () => {
    const d = loadEnv({});
    expect(d.ok && d.config.ratedMinDecisions).toBe(DEFAULT_RATED_MIN_DECISIONS);
    expect(DEFAULT_RATED_MIN_DECISIONS).toBe(3);
    const off = loadEnv({ RATED_MIN_DECISIONS: '0' });
    expect(off.ok && off.config.ratedMinDecisions).toBe(0);
    expect(loadEnv({ RATED_MIN_DECISIONS: '-1' }).ok).toBe(false);
  });
});

describe('challenge settings', () => {
  it('default to the service defaults (30 an hour; 1 hour live or no clock, 7 days correspondence) and are read in seconds', () => {
    const d = loadEnv({});
    expect(d.ok && d.config.challenges).toEqual({
      perHour: 30,
      maxPendingPerRecipient: 50,
      expiryMs: { live: 3_600_000, correspondence: 604_800_000 },
    });
    const set = loadEnv({
      CHALLENGES_PER_HOUR: '5',
      CHALLENGE_MAX_PENDING_PER_RECIPIENT: '7',
      CHALLENGE_EXPIRY_LIVE_S: '600',
      CHALLENGE_EXPIRY_CORRESPONDENCE_S: '86400',
    });
    expect(set.ok && set.config.challenges).toEqual({
      perHour: 5,
      maxPendingPerRecipient: 7,
      expiryMs: { live: 600_000, correspondence: 86_400_000 },
    });
    expect(loadEnv({ CHALLENGE_MAX_PENDING_PER_RECIPIENT: '0' }).ok).toBe(false);
    expect(loadEnv({ CHALLENGES_PER_HOUR: '0' }).ok).toBe(false);
  });
});
