/** Writes openapi/openapi.json from the route schemas (`npm run openapi`). A test checks it is current. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderOpenapi } from '../src/openapi-doc.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'openapi', 'openapi.json');
await mkdir(path.dirname(out), { recursive: true });
await writeFile(out, await renderOpenapi());
console.log(`wrote ${path.relative(process.cwd(), out)}`);
