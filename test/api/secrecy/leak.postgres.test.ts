/**
 * Hidden information through every read path (R-FACE-12, R-FACE-7, R-CRED-1/2, R-FACE-4,
 * R-PLAY-5; the suite is in leak-suite.ts), on PostgreSQL (skipped, saying why, when it is not
 * reachable). The PGlite half is leak.test.ts.
 */
import { backends } from '../helpers.js';
import { leakSuite } from './leak-suite.js';

leakSuite(backends.find((b) => b.name === 'postgres')!);
