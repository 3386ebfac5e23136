/**
 * vitest global setup (vitest.config.ts): runs once per `npm test`, before any test file.
 * Builds the migrated PGlite template (test/persistence/pglite-template.ts) and removes it after.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { writeTemplate } from './persistence/pglite-template.js';

export default async function setup(project: TestProject): Promise<() => void> {
  const file = path.join(os.tmpdir(), `evons-pglite-template-${process.pid}.tar`);
  await writeTemplate(file);
  project.provide('pgliteTemplate', file);
  return () => fs.rmSync(file, { force: true });
}
