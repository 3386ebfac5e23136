/**
 * How a schema becomes a named OpenAPI component: its id (the `$ref` name in openapi/openapi.json,
 * and the name the GraphQL agreement test pairs it by) and its description. Every REST and
 * contract schema module names its components with this one helper.
 */
import type { z } from 'zod';

export const register = <T extends z.ZodType>(schema: T, id: string, description?: string): T =>
  schema.meta({ id, ...(description ? { description } : {}) }) as T;
