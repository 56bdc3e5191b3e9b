// The `x-codeSamples` of an operation: its `@dms/sdk` call (each operation's `sdkSample`) after
// the client set-up. The SDK's tests type-check every sample against the SDK, so a renamed method
// or a wrong argument fails there, not in a reader's editor.

/** What a sample may import beside createClient: the filter helpers and login. */
const helpers = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'inList', 'notInList', 'like', 'notLike', 'isNull', 'login'];

/** The import of what the call uses, and a client. */
function setup(call: string): string {
  const used = helpers.filter((name) => new RegExp(`\\b${name}\\(`).test(call));
  return `import { ${['createClient', ...used].join(', ')} } from '@dms/sdk';

const dms = createClient({
  baseUrl: 'http://127.0.0.1:8080',
  auth: { apiKey: 'YOUR_API_KEY' },
});
`;
}

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The operation's `x-codeSamples`: the client set-up, then the call. */
export function sdkCodeSamples(call: string): CodeSample[] {
  return [{ lang: 'TypeScript', label: '@dms/sdk', source: `${setup(call)}\n${call}\n` }];
}
