// `node --import ./bench/ts-loader.mjs bench/run.ts`: the bench's TypeScript loader.
// tsx compiles with esbuild's `keepNames`, which wraps every function created at run time in a
// `__name(fn, …)` property write; tsc's build, which is what ships, has none. On the hot paths
// that cost whole microseconds per call, so the bench compiles the sources the way tsc emits
// them: types stripped, names left alone.
import { register } from 'node:module';

register('./ts-loader-hooks.mjs', import.meta.url);
