import { Server } from 'node:http';
import type { ServerType } from '@hono/node-server';
import { apiBase, closeGracefully, createApp, createLogger, listenHttp, listeningUrl, type DmsApp } from '@dms/http-api';
import { DomainError } from '@dms/core';
import { type Core, type SnmpAgentState } from '@dms/core/runtime';
import { defaultDesktopSettings, parseRestServerSettings, readDesktopSettings, writeDesktopSettings, type RestServerSettings } from './desktop-settings.js';
import type { RestServerController, RestServerState, RestServerStatus } from './rest-server-controller.js';

type Logger = ReturnType<typeof createLogger>;

export interface EmbeddedRestServerOptions {
  /** The app's one service: the REST server is a second door to it, not a second service. */
  core: Core;
  snmpAgent?: () => SnmpAgentState;
  /** The desktop settings file (JSON in the user-data dir). */
  settingsFile: string;
  /** Request and error logs of the REST server; warnings and errors only by default. */
  logger?: Logger;
}

/** Where the desktop user changes what a failed listen names: the Settings screen, not DMS_PORT. */
const settingsRemedies = { port: 'choose another port', host: 'use 127.0.0.1 or an address of this computer' };

/** Requests in flight may finish within this when the server is turned off or the app quits. */
const closeGraceMs = 1_000;

async function close(server: ServerType): Promise<void> {
  // Off means off: idle keep-alive connections close now, requests in flight get their answer
  // with Connection: close, and whatever is still open after closeGraceMs (a long poll) is cut.
  if (server instanceof Server) await closeGracefully(server, closeGraceMs).done;
  else await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * The desktop app's REST server (`/api/v2`) over its own core, so SDK clients and curl reach
 * this instance. Off by default; its settings live in a file of the app, read at start and
 * written on each change, which is applied at once. Changes run one at a time.
 */
export class EmbeddedRestServer implements RestServerController {
  readonly #options: EmbeddedRestServerOptions;
  #settings: RestServerSettings = defaultDesktopSettings.restServer;
  #state: RestServerState = 'stopped';
  #server: ServerType | undefined;
  #url: string | null = null;
  #lastError: string | null = null;
  // Made once and kept across restarts: createApp subscribes to the core's events for good.
  #app: DmsApp | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: EmbeddedRestServerOptions) {
    this.#options = options;
  }

  status(): RestServerStatus {
    return { state: this.#state, url: this.#url, lastError: this.#lastError, settings: { ...this.#settings } };
  }

  /** Reads the settings file and starts the server when it is enabled; a failure is in the status, never thrown. */
  start(): Promise<RestServerStatus> {
    return this.#serially(async () => {
      const loaded = await readDesktopSettings(this.#options.settingsFile);
      await this.#apply(loaded.settings.restServer);
      if (loaded.problem && this.#lastError === null) this.#lastError = loaded.problem;
      return this.status();
    });
  }

  update(body: unknown): Promise<RestServerStatus> {
    const settings = parseRestServerSettings(body);
    return this.#serially(async () => {
      const { settings: stored } = await readDesktopSettings(this.#options.settingsFile);
      try {
        await writeDesktopSettings(this.#options.settingsFile, { ...stored, restServer: settings });
      } catch (error) {
        throw new DomainError('internal', `could not save the settings to ${this.#options.settingsFile}: ${(error as Error).message}`, { cause: error });
      }
      await this.#apply(settings);
      return this.status();
    });
  }

  /** Stops listening (the app quits); the stored settings stay as they are. */
  stop(): Promise<void> {
    return this.#serially(() => this.#stopListening());
  }

  #serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task, task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #apply(settings: RestServerSettings): Promise<void> {
    const unchanged = this.#settings.host === settings.host && this.#settings.port === settings.port;
    this.#settings = settings;
    // Saving the same address again keeps the running server and its open connections.
    if (settings.enabled && unchanged && this.#state === 'running') return;
    await this.#stopListening();
    this.#lastError = null;
    if (!settings.enabled) return;
    try {
      const server = await listenHttp(this.#dmsApp().app.fetch, settings.host, settings.port, settingsRemedies);
      this.#server = server;
      this.#state = 'running';
      this.#url = listeningUrl(server, settings.host, settings.port, apiBase);
    } catch (error) {
      this.#state = 'failed';
      this.#lastError = (error as Error).message;
    }
  }

  async #stopListening(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#state = 'stopped';
    this.#url = null;
    if (server) await close(server);
  }

  #dmsApp(): DmsApp {
    const { core, snmpAgent, logger } = this.#options;
    this.#app ??= createApp({ core, logger: logger ?? createLogger('warn'), ...(snmpAgent ? { snmpAgent } : {}) });
    return this.#app;
  }
}
