import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createClient, type ClientOptions, type DmsClient } from '../../src/index.js';
import { adminPassword, startDms, type DmsServer } from './dms-server.js';
import { checkResponses, type ResponseCheck } from './response-validator.js';

export interface SdkFixture {
  server: DmsServer;
  /** The admin user over Basic. */
  admin: DmsClient;
  /** An API key with every scope (`*` / `*`, no get_password), created by the admin. */
  dms: DmsClient;
  /** Every answer either client received, checked against the document. */
  responses: ResponseCheck;
  /** Another client on the same server, its answers checked too. */
  client(options: Omit<ClientOptions, 'baseUrl' | 'fetch'>): DmsClient;
}

/**
 * A real server for the file's tests (started once), and clients whose every answer is
 * validated against openApiDocument(): a test fails when the SDK saw an undocumented answer.
 */
export function useDms(): SdkFixture {
  const fixture = {} as SdkFixture;
  beforeAll(async () => {
    fixture.server = await startDms();
    fixture.responses = checkResponses();
    fixture.client = (options) => createClient({ ...options, baseUrl: fixture.server.url, fetch: fixture.responses.fetch });
    fixture.admin = fixture.client({ auth: { basic: { username: 'admin', password: adminPassword } } });
    const { key } = await fixture.admin.apiKeys.create({ name: 'sdk tests', api_key_scopes: [{ controller: '*', action: '*' }] });
    fixture.dms = fixture.client({ auth: { apiKey: key } });
  });
  afterEach(() => {
    expect(fixture.responses.failures).toEqual([]);
  });
  afterAll(async () => {
    await fixture.server?.close();
  });
  return fixture;
}
