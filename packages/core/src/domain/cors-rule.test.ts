import { describe, expect, it } from 'vitest';
import { compileCorsRules, findCorsRule, isSerialisedOrigin } from './cors-rule.js';

const anyOrigin = { origins: ['*'], path: '*', methods: ['GET', 'POST'] };
const named = { origins: ['https://app.example.com:8443', 'tools.example.com'], path: '/api/v2/nas*', methods: ['GET'] };

describe('findCorsRule', () => {
  it('Finding 13: a * rule never allows the null origin', () => {
    expect(findCorsRule([anyOrigin], 'null', '/api/v2/nas', 'GET')).toBeUndefined();
    expect(findCorsRule([anyOrigin], 'NULL', '/api/v2/nas', 'GET')).toBeUndefined();
    expect(findCorsRule([anyOrigin], 'https://app.example.com', '/api/v2/nas', 'GET')).toBe(anyOrigin);
  });

  it('Finding 13: a * rule allows only serialised origins', () => {
    const refused = [
      '',
      '*',
      'file://',
      'https://a.example/',
      'https://a.example/path',
      'https://a.example, https://b.example',
      'https://u@a.example',
      'a.example',
      'https://a.example:99999999',
      'https://a.example:',
    ];
    for (const origin of refused) expect(findCorsRule([anyOrigin], origin, '/', 'GET'), origin).toBeUndefined();
  });

  it('matches exact origins, DNS names on any scheme and port, path globs and methods', () => {
    const find = compileCorsRules([named, anyOrigin]);
    expect(find('https://app.example.com:8443', '/api/v2/nas/1', 'get')).toBe(named);
    expect(find('http://tools.example.com:8080', '/api/v2/nas_shares', 'GET')).toBe(named);
    // The next rule answers what the first one does not allow.
    expect(find('https://app.example.com', '/api/v2/nas', 'GET')).toBe(anyOrigin);
    expect(find('https://tools.example.com', '/api/v2/users', 'GET')).toBe(anyOrigin);
    expect(find('https://tools.example.com', '/api/v2/nas', 'DELETE')).toBeUndefined();
  });
});

describe('isSerialisedOrigin', () => {
  it('takes what browsers send', () => {
    for (const origin of [
      'https://a.example',
      'http://localhost:5173',
      'http://[::1]:8080',
      'http://192.168.1.10',
      'https://xn--bcher-kva.example',
      'capacitor://localhost',
    ]) {
      expect(isSerialisedOrigin(origin), origin).toBe(true);
    }
  });

  it('refuses null and what is not an origin', () => {
    for (const origin of [
      'null',
      'file://',
      'https://',
      'https://a.example/',
      'https://a.example?x',
      'https://a.example#x',
      ' https://a.example',
      'https://a b.example',
    ]) {
      expect(isSerialisedOrigin(origin), origin).toBe(false);
    }
  });
});
