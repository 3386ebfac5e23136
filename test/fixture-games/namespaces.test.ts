/** Every game of the fixture registry, Noughts too, keeps to its own namespaces (test/core/namespace-conformance.ts). */
import { GAME_LIST } from '../../src/games/registry.js';
import { namespaceConformance } from '../core/namespace-conformance.js';

for (const m of GAME_LIST) namespaceConformance(m);
