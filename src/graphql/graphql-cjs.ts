/**
 * graphql as Mercurius loads it. graphql 16 ships a CommonJS and an ES module build, and Node
 * loads both (Mercurius `require`s it, our modules `import` it): two copies. The schema Mercurius
 * builds belongs to the CommonJS one, whose `validate` refuses a schema "from another module or
 * realm"; code that hands Mercurius's schema to graphql uses this copy.
 */
import { createRequire } from 'node:module';

export const graphqlCjs = createRequire(import.meta.url)('graphql') as typeof import('graphql');
