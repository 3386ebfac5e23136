export * from './types.js';
export { openDatabase, databaseConfigFromEnv, type Database, type DatabaseConfig, type SqlTx } from './database.js';
export { DataDirLockedError, lockDataDir, lockPathFor, type DirLock } from './dir-lock.js';
export { migrate, loadMigrations, type MigrateResult, type Migration } from './migrate.js';
export { PgMatchStore, openStore, type OpenedStore } from './match-store.js';
export { InvalidCursorError, encodeCursor, decodeCursor } from './match-list.js';
