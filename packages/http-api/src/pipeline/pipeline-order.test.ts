import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../http/env.js';
import { createPipeline, maxPathBytes } from './pipeline.js';
import type { Next, Step } from './step.js';

/**
 * docs/architecture.md states the order a REST request meets the pipeline's steps in; this runs
 * the pipeline the app builds (createPipeline, the only middleware app.ts installs) with steps
 * that note their turn, and holds the document to what they note.
 */
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..', '..');

/** The order the map states: its line `Steps in order: a → b → …`. */
function documentedOrder(): string[] {
  const map = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const line = /Steps in order: (.+)\./.exec(map)?.[1];
  if (line === undefined) throw new Error('docs/architecture.md states no "Steps in order: …" line');
  return line.split('→').map((step) => step.replace(/\*/g, '').trim().toLowerCase());
}

/** The steps the pipeline runs for one request, in the order they ran. */
async function stepsRun(path: string): Promise<{ ran: string[]; status: number }> {
  const ran: string[] = [];
  const noting =
    (name: string): Step =>
    (_c: Context<AppEnv>, next: Next) => {
      ran.push(name);
      return next();
    };
  const pipeline = createPipeline({
    observer: { begin: () => (ran.push('observer'), 0), end: () => {} },
    cors: noting('cors'),
    limitBody: noting('body limit'),
    authenticate: noting('authentication'),
    guards: () => true,
    logger: pino({ level: 'silent' }),
  });
  const app = new Hono<AppEnv>();
  app.all(
    '*',
    pipeline.wrapUnmatched((c) => {
      ran.push('route');
      return c.body(null, 204);
    }),
  );
  const response = await app.request(`http://localhost${path}`, { method: 'POST', body: '{}' });
  return { ran, status: response.status };
}

describe('the request pipeline as docs/architecture.md states it', () => {
  it('runs its steps in the order the map states, the path-length check where a too-long path stops', async () => {
    const write = await stepsRun('/api/v2/nas');
    expect(write.status).toBe(204);
    const tooLong = await stepsRun(`/api/v2/${'a'.repeat(maxPathBytes + 1)}`);
    expect(tooLong.status).toBe(414);
    // The path-length check is no step of its own: it sits after the steps that ran before its refusal.
    const order = [...write.ran];
    order.splice(tooLong.ran.length, 0, 'path length');
    expect(order).toEqual(documentedOrder());
  });

  it('is the only middleware the app installs: one createPipeline, no app.use', () => {
    const app = readFileSync(join(here, '..', 'app.ts'), 'utf8');
    expect(app.match(/createPipeline\(/g)).toHaveLength(1);
    expect(app).not.toMatch(/\bapp\.use\(/);
  });
});
