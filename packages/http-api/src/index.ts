export { createApp, apiBase, type AppOptions, type DmsApp } from './app.js';
export { statusByCode, type ModelError } from './http/error-table.js';
export { createLogger } from './http/logger.js';
export { readConfig, type ServerConfig } from './server/config.js';
export { startServer, type RunningServer } from './server/serve.js';
export { openRuntime, type Runtime } from './server/runtime.js';
export { runCli } from './cli/commands.js';
