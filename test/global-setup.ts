/**
 * vitest global setup (vitest.config.ts): runs once per `npm test` and project, before its test files.
 * Builds the migrated PGlite and PostgreSQL templates (test/persistence/pglite-template.ts,
 * pg-template.ts) and names the directory the production build goes to when a suite needs it
 * (test/package/production-image.ts); removes all three after the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createPostgresTemplate } from './persistence/pg-template.js';
import { writeTemplate } from './persistence/pglite-template.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const run = `${process.pid}-${project.name || 'default'}`;
  const file = path.join(os.tmpdir(), `evons-pglite-template-${run}.tar`);
  const image = path.join(os.tmpdir(), `evons-production-image-${run}`);
  const [pgTemplate] = await Promise.all([createPostgresTemplate(), writeTemplate(file)]);
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', pgTemplate?.name ?? '');
  project.provide('productionImageDir', image);
  return async () => {
    fs.rmSync(file, { force: true });
    fs.rmSync(image, { recursive: true, force: true });
    await pgTemplate?.drop();
  };
}
