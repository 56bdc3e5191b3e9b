export { createLocalDriver, type LocalDriverOptions } from './local-driver.js';
export { resolveConfinedPath } from './confine-path.js';
export { walkTree, type WalkOptions } from './walk-tree.js';
export { findWalk, detectGnuFind } from './find-walk.js';
