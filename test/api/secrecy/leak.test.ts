/**
 * Hidden information through every read path (R-FACE-12, R-FACE-7, R-CRED-1/2, R-FACE-4,
 * R-PLAY-5; the suite is in leak-suite.ts), on PGlite. The PostgreSQL half is
 * leak.postgres.test.ts: one file per backend, so the halves run on both workers at once.
 */
import { backends } from '../helpers.js';
import { leakSuite } from './leak-suite.js';

leakSuite(backends.find((b) => b.name === 'pglite')!);
