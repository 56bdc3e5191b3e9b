import type { Handler } from 'hono';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import type { SmartRouter } from 'hono/router/smart-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppEnv } from '../http/env.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { foldRoutes } from './route-folding.js';

const handler = (name: string): Handler<AppEnv> => Object.assign(() => new Response(name), { label: name });
const labels = (folded: ReturnType<typeof foldRoutes>) =>
  folded.map(({ method, path, handler }) => `${method} ${path} ${(handler as { label?: string }).label ?? 'dispatch'}`);

describe('route folding (issue 27: every route on Hono RegExpRouter)', () => {
  it('folds a static segment beside a parameter into the parameter, keeps every other route as it is', () => {
    const folded = foldRoutes([
      { method: 'GET', path: '/keys/current', handler: handler('current') },
      { method: 'GET', path: '/keys/:key_id', handler: handler('show') },
      { method: 'PUT', path: '/keys/current', handler: handler('put current') },
      { method: 'GET', path: '/nas/:nas_id/shares/-/test', handler: handler('test') },
      { method: 'GET', path: '/nas/:nas_id/shares/:share_id', handler: handler('share') },
      { method: 'GET', path: '/nas/:nas_id/shares', handler: handler('shares') },
    ]);
    expect(labels(folded)).toEqual([
      'GET /keys/:key_id dispatch',
      // No PUT route has a parameter there: the static route stays static.
      'PUT /keys/current put current',
      'GET /nas/:nas_id/shares/:share_id/test dispatch',
      'GET /nas/:nas_id/shares/:share_id share',
      'GET /nas/:nas_id/shares shares',
    ]);
  });

  describe('on the app', () => {
    let t: TestApp | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    it("takes Hono's RegExpRouter for all its routes (SmartRouter falls back to TrieRouter on a conflict)", async () => {
      t = await createTestApp();
      expect((await t.call('GET', '/healthz')).status).toBe(200);
      expect((t.app.router as SmartRouter<unknown>).activeRouter).toBeInstanceOf(RegExpRouter);
    });

    it('answers a folded static route, the parameter route beside it, and a path neither applies to, as before', async () => {
      t = await createTestApp();
      const bearer = await t.bearer('api_keys/show');
      const current = await t.call('GET', '/api/v2/api_keys/current', { auth: bearer });
      expect(current.status).toBe(200);
      const { id } = (await current.json()) as { id: number };
      const byId = await t.call('GET', `/api/v2/api_keys/${id}`, { auth: t.basic });
      expect(byId.status).toBe(200);
      expect(((await byId.json()) as { id: number }).id).toBe(id);
      // The test route's pattern with another value where its static '-' stood: no route, as before.
      const elsewhere = await t.call('GET', `/api/v2/nas/1/nas_shares/7/test`, { auth: t.basic });
      expect(elsewhere.status).toBe(404);
      const unknown = await t.call('GET', `/api/v2/nas/1/nas_shares/7/nothing`, { auth: t.basic });
      expect(unknown.status).toBe(404);
      expect(await elsewhere.text()).toBe((await unknown.text()).replaceAll('/7/nothing', '/7/test'));
    });
  });
});
