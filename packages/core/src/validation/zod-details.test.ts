import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { closestName, editDistance } from './closest-name.js';
import { isDomainError, type DomainError } from '../errors/domain-error.js';
import { strictInput } from './strict-input.js';
import { parseInput } from './zod-details.js';

function refusal(schema: z.ZodType, body: unknown): DomainError {
  try {
    parseInput(schema, body);
  } catch (error) {
    if (isDomainError(error)) return error;
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

const device = strictInput(
  z.object({
    name: z.string().min(1).max(255),
    kind: z.enum(['disk', 'tape']),
    level: z.number().int().min(1).max(5).optional(),
    count: z.number().int().positive().optional(),
    price: z.string().nullable().optional(),
    tags: z.array(z.number().int()).min(1).max(3).optional(),
    owner: z.object({ controller: z.string(), action: z.string() }).strict().optional(),
    code: z
      .string()
      .min(1)
      .regex(/^[a-z]+$/, { message: 'must be lower-case letters' })
      .optional(),
  }),
  { readOnly: ['id', 'shelf_id'], setElsewhere: { shelf_id: 'is set through PUT /shelves/{id}', serial: 'is set by the factory' } },
);
const valid = { name: 'd', kind: 'disk' };

describe('closestName', () => {
  it.each([
    ['nmae', ['name', 'host'], 'name'],
    ['severityLow', ['severity_low', 'severity_high'], 'severity_low'],
    ['NAME', ['name'], 'name'],
    ['colour', ['name', 'host', 'type', 'comment', 'price'], undefined],
    ['ab', ['id'], undefined],
    ['x'.repeat(100), ['x'.repeat(99)], undefined],
  ])('%s → %s', (typed, known, expected) => {
    expect(closestName(typed, known)).toBe(expected);
  });

  it('counts a swap of neighbours as one edit', () => {
    expect(editDistance('nmae', 'name')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('parseInput with a strict body', () => {
  it('drops read-only fields whatever their value, and keeps the caller’s object as it was', () => {
    const body = { ...valid, id: 'anything', shelf_id: { nested: true } };
    expect(parseInput(device, body)).toEqual(valid);
    expect(body.id).toBe('anything');
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a near typo', { nmae: 'x' }, 'nmae', "unknown field 'nmae'; did you mean 'name'?"],
    ['a far one', { colour: 'red' }, 'colour', "unknown field 'colour'; known fields: name, kind, level, count, price, tags, owner, code"],
    ['a field set elsewhere', { serial: 'x' }, 'serial', 'serial is set by the factory'],
    [
      'a typo of a read-only field set elsewhere',
      { shelf: 1 },
      'shelf',
      "unknown field 'shelf'; did you mean 'shelf_id'? (shelf_id is set through PUT /shelves/{id})",
    ],
    ['a nested typo', { owner: { controller: 'x', action: 'y', acton: 'z' } }, 'owner.acton', "unknown field 'owner.acton'; did you mean 'owner.action'?"],
    ['a control character in a key', { 'a\u0007': 1 }, 'a\u0007', "unknown field 'a\\u0007'; known fields: name, kind, level, count, price, tags, owner, code"],
    [
      '__proto__',
      JSON.parse('{"__proto__": 1}') as Record<string, unknown>,
      '__proto__',
      "unknown field '__proto__'; known fields: name, kind, level, count, price, tags, owner, code",
    ],
  ])('refuses %s with 422 unknown and says what was meant', (_label, extra, key, message) => {
    const error = refusal(device, { ...valid, ...extra });
    expect(error.code).toBe('validation');
    expect(Object.hasOwn(error.details, key)).toBe(true);
    expect(error.details[key]).toEqual([{ error: 'unknown' }]);
    expect(error.messages).toEqual([message]);
  });

  it('lists twenty unknown fields and counts the rest', () => {
    const extra = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`zz${i}`, i]));
    const error = refusal(device, { ...valid, ...extra });
    expect(Object.keys(error.details)).toHaveLength(21);
    expect(error.details['base']).toEqual([{ error: 'unknown', count: 5 }]);
    expect(error.messages.at(-1)).toBe('and 5 more unknown fields');
  });
});

describe('messages name the rule', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ['an enum', { kind: 'cloud' }, 'kind', 'kind must be one of disk, tape'],
    ['a wrong type', { name: 5 }, 'name', 'name must be a string, got a number'],
    ['a nullable wrong type', { price: 12.5 }, 'price', 'price must be a string or null, got a number'],
    ['a boolean where an integer goes', { level: true }, 'level', 'level must be an integer, got true'],
    ['a fraction', { level: 2.5 }, 'level', 'level must be an integer, got 2.5'],
    ['a number too large for a double', { level: Infinity }, 'level', 'level must be an integer, got a number too large to represent'],
    ['a range', { level: 9 }, 'level', 'level must be between 1 and 5'],
    ['a positive integer', { count: 0 }, 'count', 'count must be greater than or equal to 1'],
    ['a long string', { name: 'n'.repeat(256) }, 'name', 'name is too long (maximum is 255 characters)'],
    ['a blank string', { name: '' }, 'name', "name can't be blank"],
    ['a missing field', { name: undefined }, 'name', "name can't be blank"],
    ['blank, not also invalid', { code: '' }, 'code', "code can't be blank"],
    ['a rule of the schema', { code: 'ABC' }, 'code', 'code must be lower-case letters'],
    ['an empty list', { tags: [] }, 'tags', 'tags must have at least 1 item'],
    ['a long list', { tags: [1, 2, 3, 4] }, 'tags', 'tags must have at most 3 items'],
    ['an element', { tags: [1, 'two'] }, 'tags.1', 'tags[1] must be an integer, got a string'],
    ['an object', { owner: 'nas/index' }, 'owner', 'owner must be {"controller": "...", "action": "..."}, got a string'],
  ])('%s', (_label, patch, key, message) => {
    const error = refusal(device, { ...valid, ...patch });
    expect(Object.keys(error.details)).toEqual([key]);
    expect(error.messages).toEqual([message]);
  });

  it('a union of literals lists its values', () => {
    const flag = z.object({ activation: z.union([z.literal(0), z.literal(1)]) });
    expect(refusal(flag, { activation: true }).messages).toEqual(['activation must be one of 0, 1']);
  });

  it('a body that is not an object is 400', () => {
    for (const body of [null, [], 'text', 3]) expect(refusal(device, body).code).toBe('bad_request');
  });
});
