/** Every registered game keeps to its own namespaces (namespace-conformance.ts). */
import { GAME_LIST } from '../../src/games/registry.js';
import { namespaceConformance } from './namespace-conformance.js';

for (const m of GAME_LIST) namespaceConformance(m);
