import { defaultSnmpConfig } from '../domain/snmp-config.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Storage } from '../ports/storage.js';
import type { ListQuery } from '../list-query/list-query.js';
import { isDomainError } from '../errors/domain-error.js';
import { listDefaults } from '../defaults.js';

export type StorageFactory = () => Promise<Storage>;

function query(overrides: Partial<ListQuery> = {}): ListQuery {
  return { limit: 100, offset: 0, sort: [], filters: [], ...overrides };
}

async function rejectsWith(promise: Promise<unknown>, code: string, detailType?: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isDomainError(error), `expected DomainError(${code}), got ${String(error)}`).toBe(true);
  if (!isDomainError(error)) return;
  expect(error.code).toBe(code);
  if (detailType)
    expect(
      Object.values(error.details)
        .flat()
        .map((d) => d.error),
    ).toContain(detailType);
}

/**
 * The contract every storage adapter passes (`@dms/core/testing`). Each test gets a fresh,
 * migrated storage from `open`, and closes it afterwards.
 */
export function runStorageContract(name: string, open: StorageFactory): void {
  describe(`storage contract: ${name}`, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await open();
      await storage.migrate();
    });
    afterEach(() => storage.close());

    const nas = (name: string) => storage.nas.create({ name, host: `${name}.example`, type: 'smb_v3', comment: null, price: null });
    const share = (nasId: number, name: string, extra: Record<string, unknown> = {}) =>
      storage.shares.create({ nas_id: nasId, name, path: `/${name}`, options: null, username: null, password_enc: null, ...extra });

    it('migrates idempotently and answers ping', async () => {
      await storage.migrate();
      await expect(storage.ping()).resolves.toBeUndefined();
    });

    it('creates, reads, updates and deletes a NAS; names are unique', async () => {
      const created = await nas('alpha');
      expect(created).toMatchObject({ id: expect.any(Number), name: 'alpha', comment: null });
      expect(await storage.nas.get(created.id)).toEqual(created);
      expect(await storage.nas.findByName('alpha')).toEqual(created);
      await rejectsWith(nas('alpha'), 'conflict', 'taken');
      expect(await storage.nas.update(created.id, { comment: 'rack 4' })).toMatchObject({ name: 'alpha', comment: 'rack 4' });
      expect(await storage.nas.update(created.id, { comment: null })).toMatchObject({ comment: null });
      expect(await storage.nas.update(9999, { comment: 'x' })).toBeUndefined();
      expect(await storage.nas.delete(created.id)).toBe(true);
      expect(await storage.nas.delete(created.id)).toBe(false);
      expect(await storage.nas.get(created.id)).toBeUndefined();
    });

    it('keeps share names unique within a NAS only, and counts a NAS’s shares', async () => {
      const a = await nas('a');
      const b = await nas('b');
      await share(a.id, 'data');
      await share(b.id, 'data');
      await rejectsWith(share(a.id, 'data'), 'conflict', 'taken');
      expect(await storage.nas.shareCount(a.id)).toBe(1);
      await rejectsWith(storage.nas.delete(a.id), 'conflict');
      expect(await storage.nas.get(a.id)).toBeDefined();
      expect((await storage.shares.findByName('data')).length).toBe(2);
      expect((await storage.shares.findByName('data', b.id))[0]?.nas_id).toBe(b.id);
      expect(await storage.shares.count()).toBe(2);
    });

    it('gives exactly one winner to concurrent creates of one name', async () => {
      const a = await nas('a');
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => share(a.id, 'same')));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    });

    it('updates a share partially and stores the sealed password as given', async () => {
      const a = await nas('a');
      const created = await share(a.id, 's', { password_enc: 'v1:sealed', username: 'bob' });
      const updated = await storage.shares.update(created.id, { path: '/new', username: null });
      expect(updated).toMatchObject({ path: '/new', username: null, password_enc: 'v1:sealed', name: 's', file_count: 0 });
      const renamedClash = share(a.id, 't').then((t) => storage.shares.update(t.id, { name: 's' }));
      await rejectsWith(renamedClash, 'conflict', 'taken');
    });

    it('pages the same whether a page seeks from an earlier page’s row or walks from the start, also after writes', async () => {
      const a = await nas('seek');
      // Few distinct names: ties broken by id; one name outside the filter.
      for (let i = 0; i < 40; i++) await share(a.id, `p${i % 6}-${String(i).padStart(2, '0')}`, { path: `/v${i % 3}` });
      await share(a.id, 'other');
      type Row = { id: number; name: string; path: string };
      const expected = async (sort: ListQuery['sort'], offset: number, limit: number) => {
        // The reference: every matching row from the first page on, sorted here.
        const all = (await storage.shares.list(query({ limit: 1000, filters: [{ field: 'name', op: 'like', values: ['p%'] }] }))).items as Row[];
        const compare = (x: Row, y: Row) => {
          for (const key of [...sort, { field: 'id', direction: sort.at(-1)?.direction ?? 'asc' }]) {
            const [u, v] = [x[key.field as keyof Row], y[key.field as keyof Row]];
            if (u !== v) return (u < v ? -1 : 1) * (key.direction === 'asc' ? 1 : -1);
          }
          return 0;
        };
        return {
          ids: all
            .sort(compare)
            .slice(offset, offset + limit)
            .map((row) => row.id),
          count: all.length,
        };
      };
      const orders: Array<ListQuery['sort']> = [
        [{ field: 'name', direction: 'desc', nullable: false }],
        [
          { field: 'path', direction: 'asc', nullable: false },
          { field: 'name', direction: 'desc', nullable: false },
        ],
        [{ field: 'path', direction: 'desc', nullable: false }],
      ];
      const check = async () => {
        for (const sort of orders) {
          // Forward, page by page (each seeks from the last one's row), then some jumps back and deeper.
          for (const offset of [0, 7, 14, 21, 28, 35, 3, 30, 16, 39, 41]) {
            const got = await storage.shares.list(query({ sort, offset, limit: 7, filters: [{ field: 'name', op: 'like', values: ['p%'] }] }));
            const want = await expected(sort, offset, 7);
            expect({ offset, ids: got.items.map((row) => row.id), count: got.count }).toEqual({ offset, ...want });
          }
        }
      };
      await check();
      const [first] = (await storage.shares.list(query({ sort: [{ field: 'name', direction: 'asc', nullable: false }], limit: 1 }))).items;
      await storage.shares.delete(first!.id);
      await share(a.id, 'p9-new', { path: '/v0' });
      await storage.shares.update((await storage.shares.findByName('p3-09'))[0]!.id, { path: '/v9' });
      await check();
    });

    it('property: any sequence of creates, renames, moves, deletes and list pages answers what a model of the rows says', async () => {
      const a = await nas('model');
      type Model = Map<number, { name: string; path: string }>;
      const orders: Array<ListQuery['sort']> = [
        [],
        [{ field: 'name', direction: 'desc', nullable: false }],
        [{ field: 'name', direction: 'asc', nullable: false }],
        [
          { field: 'path', direction: 'asc', nullable: false },
          { field: 'name', direction: 'desc', nullable: false },
        ],
        [{ field: 'path', direction: 'desc', nullable: false }],
        [{ field: 'id', direction: 'desc', nullable: false }],
      ];
      const prefixes = [undefined, 'p', 'p1', 'q'];
      const op = fc.oneof(
        fc.record({ kind: fc.constant('create' as const), group: fc.integer({ min: 0, max: 3 }), path: fc.constantFrom('/a', '/b', '/c') }),
        fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(), group: fc.integer({ min: 0, max: 3 }) }),
        fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), path: fc.constantFrom('/a', '/b', '/c') }),
        fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
        // Several pages in a row (the next one seeks from the last one's row), at times several lists between writes.
        {
          weight: 4,
          arbitrary: fc.record({
            kind: fc.constant('list' as const),
            order: fc.nat({ max: orders.length - 1 }),
            prefix: fc.nat({ max: prefixes.length - 1 }),
            offset: fc.nat({ max: 20 }),
            limit: fc.integer({ min: 1, max: 6 }),
            pages: fc.integer({ min: 1, max: 4 }),
          }),
        },
      );
      let serial = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 20, maxLength: 60, size: 'max' }), async (ops) => {
          for (const row of (await storage.shares.list(query({ limit: 1000 }))).items) await storage.shares.delete(row.id);
          const model: Model = new Map();
          const pick = (n: number) => [...model.keys()].sort((x, y) => x - y)[n % model.size];
          // Names from a few groups (ties in name order only through the group prefix), unique by serial.
          const nameOf = (group: number) => `${['p1', 'p2', 'q', 'p'][group]}-${String(serial++).padStart(4, '0')}`;
          for (const step of ops) {
            if (step.kind === 'create') {
              const created = await share(a.id, nameOf(step.group), { path: step.path });
              model.set(created.id, { name: created.name, path: step.path });
            } else if (step.kind !== 'list') {
              const id = model.size > 0 ? pick(step.pick) : undefined;
              if (id === undefined) continue;
              if (step.kind === 'delete') {
                await storage.shares.delete(id);
                model.delete(id);
              } else {
                const patch = step.kind === 'rename' ? { name: nameOf(step.group) } : { path: step.path };
                await storage.shares.update(id, patch);
                model.set(id, { ...model.get(id)!, ...patch });
              }
            } else {
              const sort = orders[step.order]!;
              const prefix = prefixes[step.prefix];
              const filters = prefix === undefined ? [] : [{ field: 'name', op: 'like' as const, values: [`${prefix}%`] }];
              const rows = [...model].map(([id, row]) => ({ id, ...row })).filter((row) => prefix === undefined || row.name.startsWith(prefix));
              const keys = [...sort, ...(sort.some((key) => key.field === 'id') ? [] : [{ field: 'id', direction: sort.at(-1)?.direction ?? 'asc' }])];
              rows.sort((x, y) => {
                for (const key of keys) {
                  const [u, v] = [x[key.field as 'id' | 'name' | 'path'], y[key.field as 'id' | 'name' | 'path']];
                  if (u !== v) return (u < v ? -1 : 1) * (key.direction === 'asc' ? 1 : -1);
                }
                return 0;
              });
              for (let page = 0; page < step.pages; page++) {
                const offset = step.offset + page * step.limit;
                const got = await storage.shares.list(query({ sort, filters, offset, limit: step.limit }));
                expect({ offset, ids: got.items.map((row) => row.id), count: got.count }).toEqual({
                  offset,
                  ids: rows.slice(offset, offset + step.limit).map((row) => row.id),
                  count: rows.length,
                });
              }
            }
          }
        }),
        { numRuns: 25 },
      );
    });

    it('filters, sorts (nulls lowest, id last) and paginates in the database with a total count', async () => {
      const a = await nas('a');
      for (const [i, username] of ['carol', null, 'alice', 'bob', null].entries()) {
        await share(a.id, `s${i + 1}`, { username, options: i % 2 ? 'ro' : null });
      }
      for (let i = 6; i <= 11; i++) await share(a.id, `s${i}`);
      const names = (page: { items: Array<{ name: string }> }) => page.items.map((s) => s.name);

      const asc = await storage.shares.list(query({ sort: [{ field: 'username', direction: 'asc', nullable: true }], limit: 5 }));
      expect(names(asc)).toEqual(['s2', 's5', 's6', 's7', 's8']);
      expect(asc.count).toBe(11);
      const desc = await storage.shares.list(query({ sort: [{ field: 'username', direction: 'desc', nullable: true }], limit: 3 }));
      expect(names(desc)).toEqual(['s1', 's4', 's3']);
      // Ties break on id in the direction of the last key: the nulls come last, newest first.
      const descTail = await storage.shares.list(query({ sort: [{ field: 'username', direction: 'desc', nullable: true }], offset: 9 }));
      expect(names(descTail)).toEqual(['s5', 's2']);

      const numeric = await storage.shares.list(query({ filters: [{ field: 'id', op: 'gte', values: [9] }] }));
      expect(names(numeric)).toEqual(['s9', 's10', 's11']);
      const inList = await storage.shares.list(query({ filters: [{ field: 'id', op: 'in', values: [1, 3, 99] }] }));
      expect(names(inList)).toEqual(['s1', 's3']);
      const notIn = await storage.shares.list(query({ filters: [{ field: 'username', op: 'not_in', values: ['alice', 'bob'] }] }));
      expect(notIn.count).toBe(9);
      const like = await storage.shares.list(query({ filters: [{ field: 'name', op: 'like', values: ['s1_'] }] }));
      expect(names(like)).toEqual(['s10', 's11']);
      const caseSensitive = await storage.shares.list(query({ filters: [{ field: 'name', op: 'like', values: ['S1%'] }] }));
      expect(caseSensitive.count).toBe(0);
      const notLike = await storage.shares.list(query({ filters: [{ field: 'name', op: 'not_like', values: ['s1%'] }] }));
      expect(notLike.count).toBe(8);
      const ne = await storage.shares.list(query({ filters: [{ field: 'username', op: 'ne', values: ['carol'] }] }));
      expect(ne.count).toBe(10);
      const isNull = await storage.shares.list(query({ filters: [{ field: 'options', op: 'eq', values: [null] }] }));
      expect(isNull.count).toBe(9);
      const both = await storage.shares.list(
        query({
          filters: [
            { field: 'id', op: 'gt', values: [2] },
            { field: 'id', op: 'lt', values: [5] },
          ],
        }),
      );
      expect(names(both)).toEqual(['s3', 's4']);
      const injection = await storage.shares.list(query({ filters: [{ field: 'name', op: 'eq', values: ["s1' or '1'='1"] }] }));
      expect(injection.count).toBe(0);
    });

    it('replaces pool membership atomically and refuses unknown or foreign shares', async () => {
      const a = await nas('a');
      const [s1, s2, s3] = [await share(a.id, 's1'), await share(a.id, 's2'), await share(a.id, 's3')];
      const p = await storage.pools.create({ name: 'p', comment: null, type: 'primary', content: 'nas' });
      const q = await storage.pools.create({ name: 'q', comment: null, type: 'scratch', content: 'nas' });
      await rejectsWith(storage.pools.create({ name: 'p', comment: null, type: 'primary', content: 'nas' }), 'conflict', 'taken');
      await storage.pools.setMembers(p.id, [s1.id, s2.id]);
      expect((await storage.pools.memberIds([p.id, q.id])).get(p.id)).toEqual([s1.id, s2.id]);
      await storage.pools.setMembers(p.id, [s2.id, s3.id]);
      expect((await storage.shares.get(s1.id))?.pool_id).toBeNull();
      expect((await storage.shares.get(s3.id))?.pool_id).toBe(p.id);
      await rejectsWith(storage.pools.setMembers(q.id, [s1.id, s2.id]), 'conflict', 'taken');
      expect((await storage.shares.get(s1.id))?.pool_id).toBeNull();
      await rejectsWith(storage.pools.setMembers(q.id, [9999]), 'validation', 'not_found');
      await storage.pools.delete(p.id);
      expect((await storage.shares.get(s2.id))?.pool_id).toBeNull();
    });

    it('stores traps, lists active targets, and keeps one SNMP configuration', async () => {
      const on = await storage.traps.create({ activation: 1, version: 'v2c', manager: 'nms:1162', community: 'public', severity_low: 3, severity_high: 5 });
      await storage.traps.create({ activation: 0, version: 'v1', manager: '[::1]', community: 'c', severity_low: 1, severity_high: 5 });
      expect((await storage.traps.listActive()).map((t) => t.id)).toEqual([on.id]);
      expect(await storage.traps.update(on.id, { severity_low: 4 })).toMatchObject({ severity_low: 4, manager: 'nms:1162' });
      expect((await storage.traps.list(query())).count).toBe(2);

      expect(await storage.snmpConfig.get()).toEqual(defaultSnmpConfig);
      await storage.snmpConfig.update({ location: 'rack 7' });
      expect(await storage.snmpConfig.update({ community: 'private' })).toEqual({ ...defaultSnmpConfig, community: 'private', location: 'rack 7' });
    });

    it('seeds the agent once, keeps its v3 users, and counts engine boots under one persisted engine id', async () => {
      await storage.snmpConfig.seedAgent({ agent_enabled: true, agent_address: '::', agent_port: 1161 });
      await storage.snmpConfig.seedAgent({ agent_enabled: false, agent_address: '127.0.0.1', agent_port: 161 });
      expect(await storage.snmpConfig.get()).toMatchObject({ agent_enabled: true, agent_address: '::', agent_port: 1161, engine_id: null });
      const user = {
        security_name: 'ops',
        security_level: 'authPriv' as const,
        auth_protocol: 'SHA-512' as const,
        auth_passphrase: 'a-pass-1',
        priv_protocol: 'AES-256' as const,
        priv_passphrase: 'p-pass-1',
      };
      await storage.snmpConfig.update({ users: [user], agent_enabled: false });
      expect(await storage.snmpConfig.get()).toMatchObject({ users: [user], agent_enabled: false, agent_port: 1161 });
      let generated = 0;
      const generate = () => `8000f22f05${String(++generated).padStart(16, '0')}`;
      const id = await storage.snmpConfig.ensureEngineId(generate);
      expect(await storage.snmpConfig.bootEngine(generate)).toEqual({ engineId: id, boots: 1 });
      expect(await storage.snmpConfig.bootEngine(generate)).toEqual({ engineId: id, boots: 2 });
      expect(generated).toBe(1);
      // a patch never moves the engine
      expect(await storage.snmpConfig.update({ engine_id: 'ff' } as never)).toMatchObject({ engine_id: id });
    });

    it('stores users and API keys by hash, with last use and scopes', async () => {
      const user = await storage.users.create({ username: 'ann', password_hash: 'h', role: 'admin' });
      expect(user.admin).toBe(true);
      await rejectsWith(storage.users.create({ username: 'ann', password_hash: 'h', role: 'operator' }), 'conflict', 'taken');
      expect(await storage.users.findByUsername('ann')).toEqual(user);
      expect(await storage.users.count()).toBe(1);
      const key = await storage.apiKeys.create({
        name: 'k',
        key_hash: 'abc',
        key_last4: 'wxyz',
        scopes: [{ controller: 'nas_shares', action: 'show' }],
        created_at: '2026-01-01T00:00:00.000Z',
        expires_at: null,
        owner_user_id: null,
        parent_key_id: null,
        role: null,
      });
      expect(await storage.apiKeys.findByHash('abc')).toEqual(key);
      await storage.apiKeys.touch(key.id, '2026-01-02T00:00:00.000Z');
      expect((await storage.apiKeys.get(key.id))?.last_used_at).toBe('2026-01-02T00:00:00.000Z');
      expect((await storage.apiKeys.update(key.id, { scopes: [{ controller: '*', action: 'index' }] }))?.scopes).toEqual([
        { controller: '*', action: 'index' },
      ]);
      expect(await storage.apiKeys.delete(key.id)).toBe(true);
      expect(await storage.apiKeys.findByHash('abc')).toBeUndefined();
      await storage.settings.set('jwt', { enabled: true });
      expect(await storage.settings.get('jwt')).toEqual({ enabled: true });
    });

    it('custom roles: unique names, scopes kept, deleted only when no user or key holds them (docs/decisions/176-roles.md)', async () => {
      const role = await storage.roles.create({ name: 'backup', description: null, scopes: [{ controller: 'nas_shares', action: 'scan' }] });
      await rejectsWith(storage.roles.create({ name: 'backup', description: null, scopes: [] }), 'conflict', 'taken');
      expect(await storage.roles.findByName('backup')).toEqual(role);
      const changed = await storage.roles.update(role.id, { scopes: [{ controller: 'jobs', action: '*' }], description: 'runs' });
      expect(changed).toMatchObject({ name: 'backup', description: 'runs', scopes: [{ controller: 'jobs', action: '*' }] });
      const user = await storage.users.create({ username: 'role-holder', password_hash: 'h', role: 'backup' });
      expect(user).toMatchObject({ role: 'backup', admin: false });
      const key = await storage.apiKeys.create({
        name: 'role-key',
        key_hash: 'role-key',
        key_last4: 'wxyz',
        scopes: [],
        role: 'backup',
        created_at: '2026-01-01T00:00:00.000Z',
        expires_at: null,
        owner_user_id: null,
        parent_key_id: null,
      });
      expect(key.role).toBe('backup');
      expect(await storage.roles.deleteUnlessHeld(role.id)).toEqual({ users: 1, apiKeys: 1 });
      expect(await storage.users.setRole(user.id, 'admin')).toBe(true);
      expect(await storage.users.get(user.id)).toMatchObject({ role: 'admin', admin: true });
      await storage.apiKeys.update(key.id, { role: null, scopes: [{ controller: 'jobs', action: 'index' }] });
      expect(await storage.roles.deleteUnlessHeld(role.id)).toEqual({ users: 0, apiKeys: 0 });
      expect(await storage.roles.findByName('backup')).toBeUndefined();
      expect(await storage.roles.deleteUnlessHeld(role.id)).toBeUndefined();
      expect(await storage.roles.count()).toBe(0);
    });

    it('key lineage: revoking a key revokes the keys it created, deleting a user deletes its keys', async () => {
      const user = await storage.users.create({ username: 'lineage', password_hash: 'h', role: 'operator' });
      const base = { key_last4: 'wxyz', scopes: [{ controller: '*', action: 'index' }], role: null, created_at: '2026-01-01T00:00:00.000Z', expires_at: null };
      const parent = await storage.apiKeys.create({ ...base, name: 'parent', key_hash: 'p', owner_user_id: user.id, parent_key_id: null });
      const child = await storage.apiKeys.create({ ...base, name: 'child', key_hash: 'c', owner_user_id: user.id, parent_key_id: parent.id });
      const grandchild = await storage.apiKeys.create({ ...base, name: 'grandchild', key_hash: 'g', owner_user_id: user.id, parent_key_id: child.id });
      const other = await storage.apiKeys.create({ ...base, name: 'other', key_hash: 'o', owner_user_id: user.id, parent_key_id: null });
      expect(grandchild.parent_key_id).toBe(child.id);
      await storage.apiKeys.delete(parent.id);
      expect(await storage.apiKeys.get(child.id)).toBeUndefined();
      expect(await storage.apiKeys.get(grandchild.id)).toBeUndefined();
      expect(await storage.apiKeys.get(other.id)).toBeDefined();
      await storage.users.delete(user.id);
      expect(await storage.apiKeys.get(other.id)).toBeUndefined();
    });

    it('key cap: concurrent creates of one owner never pass the cap; other owners and system keys are not counted (security round 2, 8)', async () => {
      const [ann, bob] = await Promise.all(['cap-ann', 'cap-bob'].map((username) => storage.users.create({ username, password_hash: 'h', role: 'operator' })));
      const base = {
        key_last4: 'wxyz',
        scopes: [{ controller: '*', action: 'index' }],
        role: null,
        created_at: '2026-01-01T00:00:00.000Z',
        expires_at: null,
        parent_key_id: null,
      };
      const attempt = (owner: number | null, i: number) =>
        storage.apiKeys.createWithinOwnerCap({ ...base, name: `k${i}`, key_hash: `cap-${owner}-${i}`, owner_user_id: owner }, 3);
      const made = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt(ann!.id, i)));
      expect(made.filter((key) => key !== undefined)).toHaveLength(3);
      expect((await storage.apiKeys.list(query({ filters: [{ field: 'owner_user_id', op: 'eq', values: [ann!.id] }] }))).count).toBe(3);
      const kept = made.find((key) => key !== undefined)!;
      expect(kept).toEqual(await storage.apiKeys.get(kept.id));
      expect(await attempt(bob!.id, 0)).toBeDefined();
      const system = await Promise.all(Array.from({ length: 5 }, (_, i) => attempt(null, i)));
      expect(system.every((key) => key !== undefined)).toBe(true);
      await storage.apiKeys.delete(kept.id);
      expect(await attempt(ann!.id, 99)).toBeDefined();
    });

    it('claims each queued job exactly once, oldest first, and erases payloads when jobs finish', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
      for (let i = 0; i < 6; i++) {
        await storage.jobs.enqueue({ id: `job-${i}`, kind: 'share_test', nas_id: 1, share_id: null, total: 3, payload_enc: 'v1:secret', created_at: at(i) });
      }
      const claims = await Promise.all(Array.from({ length: 10 }, (_, i) => storage.jobs.claim(`w${i}`, at(10))));
      const claimed = claims.filter((job) => job !== undefined).map((job) => job.id);
      expect(claimed.sort()).toEqual(['job-0', 'job-1', 'job-2', 'job-3', 'job-4', 'job-5']);
      expect(await storage.jobs.claim('late', at(11))).toBeUndefined();

      const first = claims.find((job) => job?.id === 'job-0')!;
      await storage.jobs.progress('job-0', first.worker_id!, { progress: 1, total: 3, steps: [{ name: 'connect', outcome: 'ok', duration_ms: 2 }] }, at(12));
      expect(await storage.jobs.get('job-0')).toMatchObject({ status: 'working', progress: 1, steps: [{ name: 'connect' }], heartbeat_at: at(12) });
      await storage.jobs.progress('job-0', 'someone-else', { progress: 3, total: 3, steps: [] }, at(13));
      expect((await storage.jobs.get('job-0'))?.progress).toBe(1);
      const done = await storage.jobs.finish(
        'job-0',
        first.worker_id!,
        { status: 'completed', message: null, progress: 3, total: 3, steps: [], result: { file_count: 2 } },
        at(14),
      );
      expect(done).toMatchObject({ status: 'completed', payload_enc: null, finished_at: at(14), result: { file_count: 2 } });

      const stale = await storage.jobs.failStale(at(13), 'interrupted', at(20));
      expect(stale.map((job) => job.id).sort()).toEqual(['job-1', 'job-2', 'job-3', 'job-4', 'job-5']);
      expect(await storage.jobs.get('job-3')).toMatchObject({ status: 'failed', message: 'interrupted', payload_enc: null });
      expect(await storage.jobs.countByStatus()).toEqual({ queued: 0, working: 0, completed: 1, failed: 5 });
      expect(await storage.jobs.purgeFinished(at(15), 10)).toBe(1);
      expect(await storage.jobs.get('job-0')).toBeUndefined();
    });

    it('finishes a job and claims the next one in one step; every job still runs exactly once', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 0, 0, s)).toISOString();
      for (let i = 0; i < 8; i++) {
        await storage.jobs.enqueue({ id: `chain-${i}`, kind: 'share_test', nas_id: 1, share_id: null, total: 1, payload_enc: 'v1:secret', created_at: at(i) });
      }
      const outcome = (i: number) => ({
        status: 'completed' as const,
        message: `done ${i}`,
        progress: 1,
        total: 1,
        steps: [{ name: 'list', outcome: 'ok' as const, duration_ms: i }],
        result: null,
      });
      // Three workers chain through the queue at once, each finishing what it holds and taking the next.
      const ran: string[] = [];
      await Promise.all(
        ['a', 'b', 'c'].map(async (worker) => {
          let job = await storage.jobs.claim(worker, at(10));
          while (job) {
            expect(job).toMatchObject({ status: 'working', worker_id: worker });
            ran.push(job.id);
            job = await storage.jobs.finishAndClaim(job.id, worker, outcome(ran.length), at(20));
          }
        }),
      );
      expect(ran.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `chain-${i}`));
      expect(await storage.jobs.countByStatus()).toEqual({ queued: 0, working: 0, completed: 8, failed: 0 });
      expect(await storage.jobs.get('chain-7')).toMatchObject({
        status: 'completed',
        payload_enc: null,
        finished_at: at(20),
        steps: [{ name: 'list', outcome: 'ok' }],
      });

      // A job failed as stale meanwhile is not finished by its old worker, whose next claim still works.
      await storage.jobs.enqueue({ id: 'held', kind: 'share_test', nas_id: 1, share_id: null, total: 1, payload_enc: 'v1:x', created_at: at(30) });
      await storage.jobs.enqueue({ id: 'after', kind: 'share_test', nas_id: 1, share_id: null, total: 1, payload_enc: 'v1:x', created_at: at(31) });
      expect((await storage.jobs.claim('slow', at(32)))?.id).toBe('held');
      await storage.jobs.failStale(at(40), 'interrupted', at(41));
      expect((await storage.jobs.finishAndClaim('held', 'slow', outcome(0), at(42)))?.id).toBe('after');
      expect(await storage.jobs.get('held')).toMatchObject({ status: 'failed', message: 'interrupted' });
      expect(await storage.jobs.finishAndClaim('after', 'slow', outcome(1), at(43))).toBeUndefined();
      expect(await storage.jobs.get('after')).toMatchObject({ status: 'completed', message: 'done 1', worker_id: 'slow' });
    });

    it('issue 45: adoptTest gives a share the newest finished unsaved test of its NAS and fingerprint within the window, once', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 5, 0, 0, s)).toISOString();
      const here = await nas('tested-here');
      const there = await nas('tested-there');
      const saved = await share(here.id, 'saved');
      const test = (id: string, nasId: number, fingerprint: string, s: number) =>
        storage.jobs.enqueue({
          id,
          kind: 'share_test',
          nas_id: nasId,
          share_id: null,
          total: 1,
          payload_enc: 'v1:x',
          created_at: at(s),
          test_fingerprint: fingerprint,
        });
      await test('fp-a', here.id, 'F', 0);
      await test('fp-b', here.id, 'F', 1);
      await test('fp-c', there.id, 'F', 2);
      await test('fp-d', here.id, 'G', 3);
      for (const [i, id] of ['fp-a', 'fp-b', 'fp-c', 'fp-d'].entries()) {
        expect((await storage.jobs.claim('w', at(5 + i)))?.id).toBe(id);
        await storage.jobs.finish(id, 'w', { status: i === 0 ? 'failed' : 'completed', message: 'm', progress: 1, total: 1, steps: [] }, at(10 + i));
      }
      await test('fp-queued', here.id, 'F', 20);
      expect(await storage.jobs.adoptTest({ nasId: here.id, fingerprint: 'F', finishedSince: at(12) }, saved.id)).toBeUndefined();
      expect(await storage.jobs.adoptTest({ nasId: here.id, fingerprint: 'F', finishedSince: at(0) }, saved.id)).toMatchObject({
        id: 'fp-b',
        share_id: saved.id,
        test_fingerprint: null,
        status: 'completed',
        finished_at: at(11),
      });
      expect(await storage.jobs.adoptTest({ nasId: here.id, fingerprint: 'F', finishedSince: at(0) }, saved.id)).toMatchObject({
        id: 'fp-a',
        status: 'failed',
      });
      // Only finished tests, of this NAS and fingerprint: the queued one, there's and G's stay.
      expect(await storage.jobs.adoptTest({ nasId: here.id, fingerprint: 'F', finishedSince: at(0) }, saved.id)).toBeUndefined();
      expect(await storage.jobs.get('fp-c')).toMatchObject({ share_id: null, test_fingerprint: 'F' });
    });

    it('item 21.4: requeue puts a working job back in the queue as before its claim, only for its worker, and it is claimed again in its place', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 3, 0, 0, s)).toISOString();
      await storage.jobs.enqueue({ id: 'back-0', kind: 'share_scan', nas_id: 1, share_id: null, total: 0, payload_enc: 'v1:kept', created_at: at(0) });
      await storage.jobs.enqueue({ id: 'back-1', kind: 'share_scan', nas_id: 1, share_id: null, total: 0, payload_enc: 'v1:kept', created_at: at(1) });
      expect((await storage.jobs.claim('leaving', at(10)))?.id).toBe('back-0');
      await storage.jobs.progress(
        'back-0',
        'leaving',
        { progress: 7, total: 0, steps: [{ name: 'list', outcome: 'ok', duration_ms: 1 }], result: { file_count: 7 } },
        at(11),
      );
      expect(await storage.jobs.requeue('back-0', 'someone-else')).toBeUndefined();
      expect(await storage.jobs.get('back-0')).toMatchObject({ status: 'working', worker_id: 'leaving' });
      expect(await storage.jobs.requeue('back-0', 'leaving')).toMatchObject({
        status: 'queued',
        worker_id: null,
        started_at: null,
        heartbeat_at: null,
        progress: 0,
        steps: [],
        result: null,
        message: null,
        payload_enc: 'v1:kept',
        finished_at: null,
      });
      // Its progress is not saved by the worker that let it go; it is claimed again before later jobs.
      await storage.jobs.progress('back-0', 'leaving', { progress: 9, total: 0, steps: [] }, at(12));
      expect((await storage.jobs.get('back-0'))?.progress).toBe(0);
      expect(await storage.jobs.requeue('back-0', 'leaving')).toBeUndefined();
      expect(await storage.jobs.claim('next', at(20))).toMatchObject({ id: 'back-0', worker_id: 'next', status: 'working' });
      await storage.jobs.finish('back-0', 'next', { status: 'completed', message: null, progress: 0, total: 0, steps: [] }, at(21));
      expect(await storage.jobs.requeue('back-0', 'next')).toBeUndefined();
      expect(await storage.jobs.get('back-0')).toMatchObject({ status: 'completed' });
    });

    it('job bounds: enqueues within the bounds only, and claims the requester with the fewest working jobs first', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 2, 0, 0, s)).toISOString();
      const job = (i: number, requested_by: string) => ({
        id: `bound-${i}`,
        kind: 'share_test' as const,
        nas_id: 1,
        share_id: null,
        total: 1,
        payload_enc: 'v1:x',
        created_at: at(i),
        requested_by,
      });
      const bounds = { perRequester: 3, total: 4 };
      const outcomes = await Promise.all([0, 1, 2, 3, 4].map((i) => storage.jobs.enqueue(job(i, 'user:a'), bounds)));
      expect(outcomes.filter((queued) => queued !== undefined)).toHaveLength(3);
      expect(await storage.jobs.countUnfinished('user:a')).toBe(3);
      expect(await storage.jobs.enqueue(job(5, 'user:b'), bounds)).toMatchObject({ id: 'bound-5', requested_by: 'user:b', status: 'queued' });
      expect(await storage.jobs.enqueue(job(6, 'user:c'), bounds)).toBeUndefined();
      expect(await storage.jobs.countUnfinished()).toBe(4);
      // user:a's oldest runs first; then user:b's, though user:a queued earlier, since user:a already has one working.
      expect((await storage.jobs.claim('w1', at(10)))?.requested_by).toBe('user:a');
      expect((await storage.jobs.claim('w2', at(10)))?.id).toBe('bound-5');
      expect((await storage.jobs.claim('w3', at(10)))?.requested_by).toBe('user:a');
    });

    it('job list: newest first by default, filters and sorts on the listed columns, with the requester kept by name', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 3, 0, 0, s)).toISOString();
      const job = (i: number, requested_by: string, kind: 'share_test' | 'share_scan') => ({
        id: `listed-${i}`,
        kind,
        nas_id: 1,
        share_id: i % 2 === 0 ? 7 : 8,
        total: 1,
        payload_enc: null,
        created_at: at(i),
        requested_by,
        requester: requested_by === 'user:1' ? 'alice' : 'ci-key',
      });
      for (const [i, requester] of ['user:1', 'key:2', 'user:1', 'key:2', 'user:1'].entries()) {
        await storage.jobs.enqueue(job(i, requester, i < 3 ? 'share_test' : 'share_scan'));
      }
      const page = (query: Partial<ListQuery>) =>
        storage.jobs.list({ limit: 10, offset: 0, sort: [{ field: 'created_at', direction: 'desc', nullable: false }], filters: [], ...query });
      expect((await page({})).items.map((listed) => listed.id)).toEqual(['listed-4', 'listed-3', 'listed-2', 'listed-1', 'listed-0']);
      const alice = await page({ filters: [{ field: 'requester', op: 'eq', values: ['alice'] }] });
      expect(alice).toMatchObject({ count: 3, items: [{ id: 'listed-4', requester: 'alice' }, { id: 'listed-2' }, { id: 'listed-0' }] });
      const scansOfShare8 = await page({
        filters: [
          { field: 'kind', op: 'eq', values: ['share_scan'] },
          { field: 'share_id', op: 'eq', values: [8] },
        ],
      });
      expect(scansOfShare8.items.map((listed) => listed.id)).toEqual(['listed-3']);
      const since = await page({ filters: [{ field: 'created_at', op: 'gte', values: [at(3)] }], limit: 1, offset: 1 });
      expect(since).toMatchObject({ count: 2, items: [{ id: 'listed-3' }] });
    });

    it('purges finished jobs in bounded batches, oldest first, never an unfinished one', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 4, 0, 0, s)).toISOString();
      for (let i = 0; i < 5; i++) {
        await storage.jobs.enqueue({ id: `old-${i}`, kind: 'share_test', nas_id: 1, share_id: null, total: 1, payload_enc: null, created_at: at(i) });
      }
      for (let i = 0; i < 4; i++) {
        const claimed = await storage.jobs.claim('w', at(10));
        await storage.jobs.finish(claimed!.id, 'w', { status: 'completed', message: null, progress: 1, total: 1, steps: [] }, at(20 + i));
      }
      expect(await storage.jobs.purgeFinished(at(30), 3)).toBe(3);
      expect(await storage.jobs.purgeFinished(at(30), 3)).toBe(1);
      expect(await storage.jobs.purgeFinished(at(30), 3)).toBe(0);
      expect(await storage.jobs.countByStatus()).toMatchObject({ queued: 1, completed: 0 });
      // The /metrics gauge: unfinished jobs only, by kind, finished ones never counted.
      await storage.jobs.enqueue({ id: 'scan-q', kind: 'share_scan', nas_id: 1, share_id: null, total: 0, payload_enc: null, created_at: at(40) });
      await storage.jobs.claim('w', at(41));
      const unfinished = await storage.jobs.countUnfinishedByKind();
      expect(unfinished.sort((a, b) => a.kind.localeCompare(b.kind) || a.status.localeCompare(b.status))).toEqual([
        { kind: 'share_scan', status: 'queued', count: 1 },
        { kind: 'share_test', status: 'working', count: 1 },
      ]);
    });

    it('a transaction commits every write of its work together, or none of them', async () => {
      const event = (name: string) => ({
        at: new Date(Date.UTC(2026, 0, 5)).toISOString(),
        actor_kind: 'user' as const,
        actor_id: 1,
        actor_name: 'alice',
        via: 'rest' as const,
        client_address: '192.0.2.1',
        request_id: 'r-1',
        action: 'create' as const,
        resource_type: 'nas',
        resource_id: null,
        resource_name: name,
        changes: { name: { from: null, to: name } },
        outcome: 'success' as const,
      });
      await expect(
        storage.transaction(async (stores) => {
          await stores.nas.create({ name: 'rolled-back', host: 'h.example', type: 'smb_v3', comment: null, price: null });
          await stores.auditEvents.append(event('rolled-back'));
          throw new Error('the change fails after its writes');
        }),
      ).rejects.toThrow('the change fails after its writes');
      expect(await storage.nas.findByName('rolled-back')).toBeUndefined();
      expect((await storage.auditEvents.list({ limit: 10, offset: 0, sort: [], filters: [] })).count).toBe(0);

      const kept = await storage.transaction(async (stores) => {
        const created = await stores.nas.create({ name: 'kept', host: 'h.example', type: 'smb_v3', comment: null, price: null });
        // A store's own atomic write joins the transaction instead of opening another.
        await stores.settings.update<number>('counter', (current) => ({ value: (current ?? 0) + 1 }));
        await stores.auditEvents.append(event('kept'));
        return created;
      });
      expect(await storage.nas.findByName('kept')).toEqual(kept);
      expect(await storage.settings.get('counter')).toBe(1);
      const listed = await storage.auditEvents.list({ limit: 10, offset: 0, sort: [], filters: [] });
      expect(listed.items).toEqual([expect.objectContaining({ resource_name: 'kept', changes: { name: { from: null, to: 'kept' } }, count: 1 })]);
    });

    it('audit events: aggregated ones count under one key, lists filter in the database, purges go oldest first in batches', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 6, 0, 0, s)).toISOString();
      const failed = (s: number) => ({
        at: at(s),
        actor_kind: 'user' as const,
        actor_id: null,
        actor_name: 'mallory',
        via: 'rest' as const,
        client_address: '198.51.100.7',
        request_id: null,
        action: 'login_failed' as const,
        resource_type: null,
        resource_id: null,
        resource_name: null,
        changes: null,
        outcome: 'failure' as const,
      });
      for (let s = 0; s < 3; s++) await storage.auditEvents.appendAggregated(failed(s), 'minute-1');
      const other = await storage.auditEvents.appendAggregated(failed(61), 'minute-2');
      expect(other.count).toBe(1);
      await storage.auditEvents.append({ ...failed(62), action: 'login', outcome: 'success', actor_name: 'alice' });
      const all = await storage.auditEvents.list({ limit: 10, offset: 0, sort: [{ field: 'at', direction: 'desc', nullable: false }], filters: [] });
      expect(all.items.map((event) => [event.action, event.count])).toEqual([
        ['login', 1],
        ['login_failed', 1],
        ['login_failed', 3],
      ]);
      const mallory = await storage.auditEvents.list({ limit: 10, offset: 0, sort: [], filters: [{ field: 'actor_name', op: 'eq', values: ['mallory'] }] });
      expect(mallory.count).toBe(2);
      expect(await storage.auditEvents.purge(at(62), 1)).toBe(1);
      expect(await storage.auditEvents.purge(at(62), 10)).toBe(1);
      expect((await storage.auditEvents.list({ limit: 10, offset: 0, sort: [], filters: [] })).items.map((event) => event.actor_name)).toEqual(['alice']);
    });

    it('issue 48: the audit and job lists count at most 10,000 matches past the page, and say when their count is a lower bound', async () => {
      const window = listDefaults.historyCountWindow;
      const at = (i: number) => new Date(Date.UTC(2026, 0, 7) + i * 1000).toISOString();
      // One past what a first page of one counts: the window plus the page, plus one.
      const many = window + 2;
      await storage.transaction(async (stores) => {
        for (let i = 0; i < many; i++) {
          await stores.auditEvents.append({
            at: at(i),
            actor_kind: 'system',
            actor_id: null,
            actor_name: 'scheduler',
            via: 'scheduler',
            client_address: null,
            request_id: null,
            action: 'test',
            resource_type: 'nas_shares',
            resource_id: String(i % 7),
            resource_name: null,
            changes: null,
            outcome: i % 2 === 0 ? 'success' : 'failure',
          });
          await stores.jobs.enqueue({ id: `many-${i}`, kind: 'share_test', nas_id: 1, share_id: null, total: 1, payload_enc: null, created_at: at(i) });
        }
      });
      const newest = [{ field: 'at', direction: 'desc' as const, nullable: false }];
      const first = await storage.auditEvents.list(query({ limit: 1, sort: newest }));
      expect(first).toMatchObject({ count: window + 1, countIsLowerBound: true });
      expect(first.items.map((event) => event.at)).toEqual([at(many - 1)]);
      // A page whose window reaches the end counts exactly.
      const last = await storage.auditEvents.list(query({ limit: 1, offset: 1, sort: newest }));
      expect(last.count).toBe(many);
      expect(last.countIsLowerBound).toBeUndefined();
      // A filter narrows what is counted, within the same window.
      for (const filter of [
        { field: 'outcome', op: 'eq' as const, values: ['failure'] },
        { field: 'actor_kind', op: 'eq' as const, values: ['system'] },
      ]) {
        const filtered = await storage.auditEvents.list(query({ limit: 100, filters: [filter], sort: newest }));
        const expected = filter.field === 'outcome' ? many / 2 : many;
        expect(filtered.count).toBe(Math.min(expected, 100 + window));
        expect(filtered.countIsLowerBound === true).toBe(expected > 100 + window);
      }
      const created = [{ field: 'created_at', direction: 'desc' as const, nullable: false }];
      expect(await storage.jobs.list(query({ limit: 1, sort: created }))).toMatchObject({ count: window + 1, countIsLowerBound: true });
      const jobs = await storage.jobs.list(query({ limit: 1, offset: 1, sort: created }));
      expect(jobs.count).toBe(many);
      expect(jobs.countIsLowerBound).toBeUndefined();
    }, 60_000);

    // Races one SQLite writer hides and several PostgreSQL connections (or replicas) do not.
    it('race: two pools taking one share at once: exactly one succeeds, the other is a conflict', async () => {
      const a = await nas('race-nas');
      const contested = await share(a.id, 'contested');
      const pools = await Promise.all(['p1', 'p2'].map((name) => storage.pools.create({ name, comment: null, type: 'nfs', content: 'files' })));
      const outcomes = await Promise.allSettled(pools.map((pool) => storage.pools.setMembers(pool.id, [contested.id])));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const [refused] = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      await rejectsWith(Promise.reject(refused?.reason), 'conflict', 'taken');
      const members = await storage.pools.memberIds(pools.map((pool) => pool.id));
      expect([...members.values()].flat()).toEqual([contested.id]);
    });

    it('race: two replicas failing stale jobs at once fail each job exactly once', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 4, 0, 0, s)).toISOString();
      for (const i of [0, 1, 2]) {
        await storage.jobs.enqueue({ id: `stale-${i}`, kind: 'share_test', nas_id: 1, share_id: null, total: 1, payload_enc: 'v1:x', created_at: at(i) });
        await storage.jobs.claim('dead-worker', at(i));
      }
      const sweeps = await Promise.all([0, 1, 2, 3].map(() => storage.jobs.failStale(at(30), 'interrupted', at(40))));
      expect(
        sweeps
          .flat()
          .map((job) => job.id)
          .sort(),
      ).toEqual(['stale-0', 'stale-1', 'stale-2']);
    });

    it('race: demoting the last two admins at once refuses one, and one admin stays', async () => {
      const admins = await Promise.all(['root1', 'root2'].map((username) => storage.users.create({ username, password_hash: 'h', role: 'admin' })));
      const outcomes = await Promise.all(admins.map((admin) => storage.users.demoteUnlessLastAdmin(admin.id, 'operator')));
      expect(outcomes.sort()).toEqual([false, true]);
      expect(await storage.users.countAdmins()).toBe(1);
      const plain = await storage.users.create({ username: 'plain', password_hash: 'h', role: 'operator' });
      expect(await storage.users.demoteUnlessLastAdmin(plain.id, 'viewer')).toBe(true);
      // A non-admin is left as it was; the demoted admin took the role it was given.
      expect((await storage.users.get(plain.id))?.role).toBe('operator');
      const demoted = (await Promise.all(admins.map((admin) => storage.users.get(admin.id)))).filter((user) => !user?.admin);
      expect(demoted.map((user) => user?.role)).toEqual(['operator']);
    });

    it('race: concurrent read-modify-writes of settings and SNMP configuration keep every change', async () => {
      const add = (field: string) =>
        storage.settings.update<Record<string, boolean>>('race', (current) => ({ value: { ...current, [field]: true }, alsoSet: { [`race_${field}`]: 1 } }));
      await Promise.all(['a', 'b', 'c', 'd'].map(add));
      expect(await storage.settings.get('race')).toEqual({ a: true, b: true, c: true, d: true });
      expect(await storage.settings.get('race_d')).toBe(1);
      await Promise.all([
        storage.snmpConfig.update({ location: 'rack 9' }),
        storage.snmpConfig.update({ contact: 'ops' }),
        storage.snmpConfig.update({ community: 'c2' }),
      ]);
      expect(await storage.snmpConfig.get()).toEqual({ ...defaultSnmpConfig, community: 'c2', location: 'rack 9', contact: 'ops' });
    });

    it("issue 42 item 2: tests and scans keep the share's capacity, its history, its forecast and a purge that keeps the latest", async () => {
      const a = await nas('capacity');
      const one = await share(a.id, 'one');
      expect(await storage.shares.get(one.id)).toMatchObject({ capacity_bytes: null, free_bytes: null, capacity_checked_at: null, capacity_forecast: null });
      // A test without a reading (a failed one) leaves it unknown.
      await storage.shares.recordTest(one.id, { status: 'failed', at: '2026-01-01T00:00:00.000Z' });
      expect(await storage.shares.get(one.id)).toMatchObject({ capacity_bytes: null, capacity_checked_at: null });
      await storage.shares.recordTest(one.id, { status: 'completed', at: '2026-01-02T00:00:00.000Z', capacity: { capacity_bytes: 1000, free_bytes: 600 } });
      await storage.shares.recordScan(one.id, {
        at: '2026-01-03T00:00:00.000Z',
        file_count: 1,
        file_size_sum: 2,
        duration_ms: 3,
        capacity_bytes: 1000,
        free_bytes: 500,
      });
      await storage.shares.recordScan(one.id, {
        at: '2026-01-04T00:00:00.000Z',
        file_count: 1,
        file_size_sum: 2,
        duration_ms: 3,
        capacity_bytes: null,
        free_bytes: null,
      });
      expect(await storage.shares.get(one.id)).toMatchObject({ capacity_bytes: 1000, free_bytes: 500, capacity_checked_at: '2026-01-03T00:00:00.000Z' });
      expect((await storage.shares.listScans(one.id, query({}))).items.map((scan) => [scan.at, scan.capacity_bytes, scan.free_bytes])).toEqual([
        ['2026-01-03T00:00:00.000Z', 1000, 500],
        ['2026-01-04T00:00:00.000Z', null, null],
      ]);
      expect(await storage.shares.capacityHistory(one.id, '2026-01-01T00:00:00.000Z', 10)).toEqual([
        { at: '2026-01-02T00:00:00.000Z', capacity_bytes: 1000, free_bytes: 600 },
        { at: '2026-01-03T00:00:00.000Z', capacity_bytes: 1000, free_bytes: 500 },
      ]);
      expect(await storage.shares.capacityHistory(one.id, '2026-01-01T00:00:00.000Z', 1)).toEqual([
        { at: '2026-01-03T00:00:00.000Z', capacity_bytes: 1000, free_bytes: 500 },
      ]);
      const forecast = { samples: 2, days: 1, growth_bytes_per_day: 100, full_at: '2026-01-08T00:00:00.000Z' };
      await storage.shares.saveForecast(one.id, forecast);
      expect((await storage.shares.get(one.id))?.capacity_forecast).toEqual(forecast);
      expect((await storage.shares.list(query({}))).items.find((row) => row.id === one.id)?.capacity_forecast).toEqual(forecast);
      expect((await storage.shares.capacity('2026-01-01T00:00:00.000Z')).find((row) => row.id === one.id)).toMatchObject({
        capacity_bytes: 1000,
        free_bytes: 500,
        capacity_forecast: forecast,
      });
      // Purged past retention, a share's latest reading kept whatever its age.
      expect(await storage.shares.purgeCapacitySamples('2027-01-01T00:00:00.000Z', 500)).toBe(1);
      expect(await storage.shares.capacityHistory(one.id, '2000-01-01T00:00:00.000Z', 10)).toEqual([
        { at: '2026-01-03T00:00:00.000Z', capacity_bytes: 1000, free_bytes: 500 },
      ]);
      // Deleting the share deletes its history.
      expect(await storage.shares.delete(one.id)).toBe(true);
      expect(await storage.shares.capacityHistory(one.id, '2000-01-01T00:00:00.000Z', 10)).toEqual([]);
    });

    it('issue 47: gauges reads every share by id in pages, with its names, findings, times in Unix seconds and the forecast full time', async () => {
      const a = await nas('gauges-a');
      const b = await nas('gauges-b');
      const pool = await storage.pools.create({ name: 'gauges-pool', comment: null, type: 'primary', content: 'nas' });
      const shares = [];
      for (let i = 0; i < 5; i++) shares.push(await share(i % 2 === 0 ? a.id : b.id, `gauges-${i}`));
      const [first, second, third] = shares as [(typeof shares)[0], (typeof shares)[0], (typeof shares)[0]];
      await storage.pools.setMembers(pool.id, [second.id]);
      await storage.shares.recordTest(first.id, {
        status: 'completed',
        at: '2026-11-29T01:15:00.250Z',
        capacity: { capacity_bytes: 2 ** 52, free_bytes: 2 ** 40 + 7 },
      });
      await storage.shares.recordScan(first.id, {
        at: '2026-11-29T02:00:00.001Z',
        file_count: 2 ** 33 + 1,
        file_size_sum: Number.MAX_SAFE_INTEGER,
        duration_ms: 5,
        capacity_bytes: null,
        free_bytes: null,
      });
      await storage.shares.saveForecast(first.id, { samples: 3, days: 2, growth_bytes_per_day: 10, full_at: '2027-01-01T00:00:00.999Z' });
      await storage.shares.recordTest(second.id, { status: 'failed', at: '1999-12-31T23:59:59.999Z' });
      // Growing no more: a forecast without a full time.
      await storage.shares.saveForecast(third.id, { samples: 3, days: 2, growth_bytes_per_day: 0, full_at: null });
      const pages: Array<readonly unknown[][]> = [];
      for await (const page of storage.shares.gauges(2)) pages.push(page as unknown as unknown[][]);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      const rows = pages.flat();
      expect(rows.map((row) => row[0])).toEqual(shares.map((row) => row.id));
      expect(rows[0]).toEqual([
        first.id,
        'gauges-0',
        'gauges-a',
        null,
        'ok',
        2 ** 52,
        2 ** 40 + 7,
        2 ** 33 + 1,
        Number.MAX_SAFE_INTEGER,
        Date.parse('2026-11-29T01:15:00.250Z') / 1000,
        Date.parse('2026-11-29T02:00:00.001Z') / 1000,
        Date.parse('2027-01-01T00:00:00.999Z') / 1000,
      ]);
      expect(rows[1]).toEqual([
        second.id,
        'gauges-1',
        'gauges-b',
        'gauges-pool',
        'unreachable',
        null,
        null,
        0,
        0,
        Date.parse('1999-12-31T23:59:59.999Z') / 1000,
        null,
        null,
      ]);
      expect(rows[2]).toEqual([third.id, 'gauges-2', 'gauges-a', null, 'unknown', null, null, 0, 0, null, null, null]);
      // Pages of one, and of more than there are: the same rows.
      const all = async (pageSize: number) => {
        const read = [];
        for await (const page of storage.shares.gauges(pageSize)) read.push(...page);
        return read;
      };
      expect(await all(1)).toEqual(rows);
      expect(await all(1000)).toEqual(rows);
      // A deleted share is not read.
      await storage.shares.delete(third.id);
      expect((await all(1000)).map((row) => row[0])).toEqual(rows.map((row) => row[0]).filter((id) => id !== third.id));
    });

    it('same on every adapter: counts past 2^32 as numbers, byte-wise text order, nulls lowest', async () => {
      const a = await nas('bytes');
      const big = await share(a.id, 'big');
      await storage.shares.recordScan(big.id, {
        at: '2026-01-07T00:00:00.000Z',
        file_count: 2 ** 33 + 1,
        file_size_sum: Number.MAX_SAFE_INTEGER,
        duration_ms: 5,
        capacity_bytes: 2 ** 52,
        free_bytes: 2 ** 40 + 7,
      });
      expect(await storage.shares.get(big.id)).toMatchObject({
        file_count: 2 ** 33 + 1,
        file_size_sum: Number.MAX_SAFE_INTEGER,
        capacity_bytes: 2 ** 52,
        free_bytes: 2 ** 40 + 7,
      });
      expect((await storage.shares.listScans(big.id, query({}))).items).toEqual([
        expect.objectContaining({ file_count: 2 ** 33 + 1, file_size_sum: Number.MAX_SAFE_INTEGER }),
      ]);
      const names = ['b', 'B', 'a', 'Z', '_', 'é', 'A b', 'a-b', 'ab'];
      for (const name of names) await storage.nas.create({ name, host: 'h', type: 'local', comment: name === 'b' ? 'x' : null, price: null });
      const byName = await storage.nas.list(
        query({ sort: [{ field: 'name', direction: 'asc', nullable: false }], filters: [{ field: 'host', op: 'eq', values: ['h'] }] }),
      );
      expect(byName.items.map((item) => item.name)).toEqual([...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
      const commentAsc = await storage.nas.list(
        query({ sort: [{ field: 'comment', direction: 'asc', nullable: true }], filters: [{ field: 'host', op: 'eq', values: ['h'] }] }),
      );
      expect(commentAsc.items.at(-1)?.name).toBe('b');
      const commentDesc = await storage.nas.list(
        query({ sort: [{ field: 'comment', direction: 'desc', nullable: true }], filters: [{ field: 'host', op: 'eq', values: ['h'] }] }),
      );
      expect(commentDesc.items[0]?.name).toBe('b');
      const like = await storage.nas.list(query({ filters: [{ field: 'name', op: 'like', values: ['a%'] }] }));
      expect(like.items.map((item) => item.name).sort()).toEqual(['a', 'a-b', 'ab']);
    });

    it('issue 40 item D: a stored run is taken over once its lease ran out or was let go, and (its holder dead) at once, never from its taker', async () => {
      const schedule = await storage.schedules.create({
        name: 'runs',
        action: 'test',
        share_ids: null,
        pool_id: null,
        nas_id: null,
        all_shares: true,
        rrule: 'DTSTART:20320101T000000Z\nRRULE:FREQ=HOURLY',
        enabled: true,
        next_run_at: null,
        creator_user_id: null,
        creator_key_id: null,
      });
      const now = '2032-01-01T00:00:30.000Z';
      const live = { owner: 'live', until: '2032-01-01T00:01:00.000Z' };
      const held = await storage.schedules.startRun(schedule.id, '2032-01-01T00:00:00.000Z', now, live);
      expect(await storage.schedules.takeOverRun(now, { owner: 'other', until: '2032-01-01T00:02:00.000Z' })).toBeUndefined();
      // The storage's one owner starting again: whoever held it is dead, whatever its lease says.
      const taken = await storage.schedules.takeOverRun(now, { owner: 'restarted', until: '2032-01-01T00:02:00.000Z' }, true);
      expect(taken).toMatchObject({ id: held.id, lease_owner: 'restarted' });
      expect(await storage.schedules.takeOverRun(now, { owner: 'restarted', until: '2032-01-01T00:03:00.000Z' }, true)).toBeUndefined();
      expect(await storage.schedules.stepRun(held.id, 'live', 1, 'queued', live.until)).toBe(false);
      // A lease that ran out is taken by anyone; one let go at once.
      const lapsed = await storage.schedules.takeOverRun('2032-01-01T00:02:01.000Z', { owner: 'replica', until: '2032-01-01T00:03:00.000Z' });
      expect(lapsed).toMatchObject({ id: held.id, lease_owner: 'replica' });
      await storage.schedules.releaseRun(held.id, 'replica');
      expect(await storage.schedules.takeOverRun(now, { owner: 'other', until: '2032-01-01T00:04:00.000Z' })).toMatchObject({ lease_owner: 'other' });
    });
  });
}
