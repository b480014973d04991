// Regenerates the published schema: node --import tsx packages/cli/src/config/write-config-schema.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFIG_SCHEMA_PATH, renderConfigJsonSchema } from './config-json-schema.js';

const target = fileURLToPath(new URL(`../../${CONFIG_SCHEMA_PATH}`, import.meta.url));
writeFileSync(target, renderConfigJsonSchema());
