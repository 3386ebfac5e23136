export * from './types.js';
export { openDatabase, databaseConfigFromEnv, type Database, type DatabaseConfig, type SqlTx } from './database.js';
export { DataDirLockedError, lockDataDir, lockPathFor, type DirLock } from './dir-lock.js';
export { migrate, loadMigrations, type MigrateResult, type Migration } from './migrate.js';
export { PrismaMatchStore, InvalidCursorError, openStore, encodeCursor, decodeCursor, type OpenedStore } from './prisma-store.js';
