// The worker thread's entry: plain JavaScript that registers tsx's loader, then loads the
// TypeScript worker (a worker started on a .ts file directly fails on Node 20).
import { register } from 'tsx/esm/api';

register();
await import('./ai-worker.ts');
