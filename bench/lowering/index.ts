import { BUILTIN_TOOLS, toProviderTools, type ToolProvider } from '@toolhost/core';

import { measureUs, type BenchRow } from '../bench-row.js';

// Lowering runs on every model request that carries tools, so its cost is paid per turn. The
// baseline is the least any lowering must do: a deep copy of the 13 model-visible schemas.
const PROVIDERS: readonly ToolProvider[] = ['openai-chat', 'anthropic', 'gemini', 'ai-sdk'];

/** Lowering the 13 built-ins per provider against a plain deep copy of their schemas. */
export async function run(): Promise<BenchRow[]> {
  const baselineUs = await measureUs(async () =>
    BUILTIN_TOOLS.map((tool) => JSON.parse(JSON.stringify(tool.llmVisibleParams)) as unknown),
  );
  const rows: BenchRow[] = [];
  for (const provider of PROVIDERS) {
    const subjectUs = await measureUs(async () => toProviderTools(BUILTIN_TOOLS, provider));
    rows.push({
      name: 'lowering',
      subject: `toProviderTools(13 built-ins, ${provider})`,
      baseline: 'deep copy of the 13 schemas',
      subjectUs,
      baselineUs,
      ratio: subjectUs / baselineUs,
      target: '≤10x',
    });
  }
  return rows;
}
