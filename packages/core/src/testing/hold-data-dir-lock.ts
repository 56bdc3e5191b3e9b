// Child process of runtime/data-dir-lock.test.ts: holds the lock of the data dir it is given until killed.
import { lockDataDir } from '../runtime/data-dir-lock.js';

lockDataDir(process.argv[2]!);
process.send?.('locked');
setInterval(() => undefined, 60_000);
