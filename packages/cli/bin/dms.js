#!/usr/bin/env node
// The `dms` command. A committed file rather than dist/main.js itself: npm links a bin
// when it installs, before the first build has created dist/, and a build does not keep the
// run bit of the files it writes.
import('../dist/main.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/main.js')) {
    process.stderr.write("dms: not built yet; run 'npm start' or 'npm run build' in the repository first\n");
    process.exit(1);
  }
  throw error;
});
