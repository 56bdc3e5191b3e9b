import { describe, expect, it } from 'vitest';
import { createClient, type Auth } from '../src/index.js';

describe('createClient', () => {
  // `process.env.DMS_API_KEY!` of an unset variable is undefined at run time, whatever its type says.
  const empty: Array<[string, Auth]> = [
    ['an empty API key', { apiKey: '' }],
    ['an API key of spaces', { apiKey: '  ' }],
    ['an unset API key', { apiKey: undefined as unknown as string }],
    ['an empty JWT', { jwt: '' }],
    ['an empty user name', { basic: { username: '', password: 'secret' } }],
  ];
  it.each(empty)('refuses %s at once, naming the option, rather than sending it for a 401', (_what, auth) => {
    const what = 'apiKey' in auth ? 'auth.apiKey' : 'jwt' in auth ? 'auth.jwt' : 'auth.basic.username';
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', auth })).toThrow(
      new TypeError(`createClient: ${what} is empty; pass a non-empty credential, or no auth for public operations only (auth.login)`),
    );
  });

  it('refuses an auth object of none of the three kinds, listing them', () => {
    expect(() => createClient({ baseUrl: 'http://127.0.0.1:1', auth: { token: 'x' } as unknown as Auth })).toThrow(
      'auth takes one of { basic: { username, password } }, { apiKey }, { jwt }',
    );
  });

  it('takes a client without auth, and a non-empty key, without a request', () => {
    expect(createClient({ baseUrl: 'http://127.0.0.1:1' }).nas).toBeDefined();
    expect(createClient({ baseUrl: 'http://127.0.0.1:1', auth: { apiKey: 'k' } }).nas).toBeDefined();
  });
});
