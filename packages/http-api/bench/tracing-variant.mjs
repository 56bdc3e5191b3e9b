// What a variant of a traced server is, for tracing-variants.mjs and tracing-cpu.mjs:
// { name, trace, sampler, env, nodeFlags, cliMain }. `trace` sets tracingEnv (OTLP/HTTP to the
// stand-in collector, `sampler` or parentbased 10 %), `env` adds or overrides variables,
// `nodeFlags` come after `npm start`'s own, `cliMain` serves another build's
// packages/cli/dist/main.js (a worktree of another commit, built).
import { randomBytes } from 'node:crypto';
import { cpSync } from 'node:fs';
import { makeTempDir } from './lib.mjs';
import { seed } from './seed.mjs';
import { createApiKey, serveNodeFlags, serverEnv, startServer } from './server.mjs';
import { tracingEnv } from './tracing-bench.mjs';

/** One data dir of 10,000 shares with an API key, which every variant serves a copy of. */
export async function seedForVariants(prefix) {
  const baseDir = makeTempDir(`${prefix}-`);
  const seeded = await seed(baseDir, { shares: 10_000, showCount: 2_000 });
  const adminPassword = randomBytes(12).toString('hex');
  const key = await createApiKey(serverEnv({ dataDir: baseDir, adminPassword }));
  return {
    baseDir,
    adminPassword,
    headers: { authorization: `Bearer ${key}` },
    paths: seeded.showIds.map((id) => `/api/v2/nas_shares/${id}`),
  };
}

/** Starts, each time it is called, a server of `variant` on a copy of the seeded data made now. */
export function variantServer(variant, { baseDir, adminPassword, sinkUrl, dirName }) {
  const dataDir = makeTempDir(dirName);
  cpSync(baseDir, dataDir, { recursive: true });
  const extraEnv = { ...(variant.trace ? tracingEnv(sinkUrl, variant.sampler) : {}), ...variant.env };
  const nodeFlags = [...serveNodeFlags, ...(variant.nodeFlags ?? [])];
  return () =>
    startServer({
      dataDir,
      adminPassword,
      logLevel: 'warn',
      label: variant.name,
      extraEnv,
      nodeFlags,
      ...(variant.cliMain ? { main: variant.cliMain } : {}),
    });
}
