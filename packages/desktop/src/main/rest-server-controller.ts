import type { RestServerSettings } from './desktop-settings.js';

/** Listening, off, or not listening because the last start failed (the port in use, say). */
export type RestServerState = 'running' | 'stopped' | 'failed';

export interface RestServerStatus {
  state: RestServerState;
  /** Where SDK clients and curl reach this instance (`http://127.0.0.1:8080/api/v2`) while it runs. */
  url: string | null;
  /** Why the last start failed, or why the settings file was ignored; null when all went well. */
  lastError: string | null;
  /** The stored settings, as the Settings screen edits them. */
  settings: RestServerSettings;
}

/**
 * The embedded REST server as the router sees it: its state and a change of its settings, which
 * are saved and applied at once. The port that keeps the router free of Hono and Node's HTTP
 * server (and the renderer's types free of them too).
 */
export interface RestServerController {
  status(): RestServerStatus;
  /** Validates the settings (a core validation error with field details), saves them, then starts, restarts or stops the server. */
  update(body: unknown): Promise<RestServerStatus>;
}
