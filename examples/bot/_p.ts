import { playInEngine, STARTER_IDS } from './arena.js';
import { greedy, random } from './strategies.js';
const t0 = performance.now();
for (let i = 0; i < 20; i++) playInEngine({ p1: greedy(`g${i}`), p2: random(`r${i}`) }, { seed: `m${i}`, decks: { p1: STARTER_IDS[i % 3]!, p2: STARTER_IDS[(i + 1) % 3]! } });
console.log(Math.round((performance.now() - t0) / 20), 'ms/match');
