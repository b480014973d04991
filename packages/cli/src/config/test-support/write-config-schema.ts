// Regenerates the published schema: node --import tsx packages/cli/src/config/test-support/write-config-schema.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format } from 'prettier';
import { CONFIG_SCHEMA_PATH, renderConfigJsonSchema } from '../config-json-schema.js';

const target = fileURLToPath(new URL(`../../../${CONFIG_SCHEMA_PATH}`, import.meta.url));
// Formatted like the rest of the tree so `prettier --check` stays green.
writeFileSync(target, await format(renderConfigJsonSchema(), { parser: 'json' }));
