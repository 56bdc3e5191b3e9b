// Loads the compiled walker (build/Release/dms_native_walk.node). It is built at install time
// where a C toolchain is present (scripts/build.mjs); elsewhere this answers why it is absent
// and the scan falls back to its JavaScript walkers.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let loaded;

export function loadNativeWalker() {
  if (loaded !== undefined) return loaded;
  try {
    loaded = { walker: require('./build/Release/dms_native_walk.node') };
  } catch (error) {
    loaded = { walker: undefined, reason: `the native walker is not built (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  return loaded;
}
