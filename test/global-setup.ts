/**
 * vitest global setup (vitest.config.ts): runs once per `npm test`, before any test file.
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
  const file = path.join(os.tmpdir(), `evons-pglite-template-${process.pid}.tar`);
  const image = path.join(os.tmpdir(), `evons-production-image-${process.pid}`);
  await writeTemplate(file);
  project.provide('pgliteTemplate', file);
  project.provide('productionImageDir', image);
  return () => {
    fs.rmSync(file, { force: true });
    fs.rmSync(image, { recursive: true, force: true });
  };
}
