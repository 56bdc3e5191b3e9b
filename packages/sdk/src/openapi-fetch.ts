import * as openapiFetch from 'openapi-fetch';

type CreateFetchClient = typeof openapiFetch.default;

/**
 * openapi-fetch's createClient, however this file was loaded (issue 26.1). Its CommonJS file
 * sets `exports.default`; this package's CommonJS build is compiled from ESM sources of a
 * `"type": "module"` package, so esbuild gives the import Node's interop, where the default
 * import is the whole `module.exports`: `(0, import_openapi_fetch.default)(…)` then threw
 * "is not a function". ESM and bundlers see the function itself.
 */
const loaded = openapiFetch.default as CreateFetchClient | { default: CreateFetchClient };
export const createFetchClient: CreateFetchClient = typeof loaded === 'function' ? loaded : loaded.default;
