// Child process of runtime/data-dir-lock.test.ts: holds the lock of the data dir it is given until killed.
import { lockDataDir } from '../runtime/data-dir-lock.js';

// Kept referenced: a lock the garbage collector takes has its database closed, and the lock goes with it.
const held = lockDataDir(process.argv[2]!);
process.send?.('locked');
setInterval(() => held, 60_000);
