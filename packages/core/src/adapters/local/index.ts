export { createLocalDriver, type LocalDriverOptions } from './local-driver.js';
export { resolveConfinedPath } from './confine-path.js';
export { openConfinedDirectory, type ConfinedDirectory } from './confined-directory.js';
export { autoScanEngine, scanConfinedDirectory, type ScanEngineOptions } from './scan-directory.js';
export { walkTree, type WalkOptions } from './walk-tree.js';
export { findWalk, detectGnuFind } from './find-walk.js';
