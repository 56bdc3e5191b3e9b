// Writes dist/openapi.json after `tsc`: the SDK generates its types from this file.
// It imports the built package, as a consumer would: no database, no core is opened.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../dist/index.js';

const target = fileURLToPath(new URL('../dist/openapi.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
