import type { BrowserWindowConstructorOptions } from 'electron';

export interface WindowOptionsFlags {
  /** Development only (`!app.isPackaged`): whether DevTools can be opened at all. */
  devTools: boolean;
}

/**
 * The renderer is a web page with no Node: isolated from the preload, sandboxed, and
 * reaching the main process only through the one IPC bridge the preload exposes.
 */
export function windowOptions(preloadPath: string, { devTools }: WindowOptionsFlags): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 800,
    minWidth: 800,
    minHeight: 560,
    title: 'dms',
    // Shown once the first paint is ready, so the window never flashes blank.
    show: false,
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      spellcheck: false,
      // Off when packaged: no shortcut, menu item or openDevTools() call then opens a console
      // on the signed-in session (the menu drops the item too, see app-menu.ts).
      devTools,
    },
  };
}

/**
 * The renderer's Content-Security-Policy: its own bundled scripts and styles only, no eval,
 * no network (every call goes over IPC), no frames, no plugins, no form posts elsewhere.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
