/**
 * vitest global setup (vitest.config.ts): runs once per `npm test` and project, before its test files.
 * Builds the migrated PGlite template (test/persistence/pglite-template.ts) and names the directory
 * the production build goes to when a suite needs it (test/package/production-image.ts); removes
 * both after the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeTemplate } from './persistence/pglite-template.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const run = `${process.pid}-${project.name || 'default'}`;
  const file = path.join(os.tmpdir(), `evons-pglite-template-${run}.tar`);
  const image = path.join(os.tmpdir(), `evons-production-image-${run}`);
  await writeTemplate(file);
  project.provide('pgliteTemplate', file);
  project.provide('productionImageDir', image);
  return () => {
    fs.rmSync(file, { force: true });
    fs.rmSync(image, { recursive: true, force: true });
  };
}
