import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session as electronSession, shell } from 'electron';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIPCHandler, ELECTRON_TRPC_CHANNEL } from 'trpc-electron/main';
import { DataDirInUseError, openDms, type Dms } from '@dms/core/runtime';
import { createLogger } from '@dms/http-api';
import { serverDefaults } from '@dms/core';
import { appRouter } from './router/index.js';
import { DesktopSession } from './session.js';
import { contentSecurityPolicy, windowOptions } from './window-options.js';
import { navigationPolicy, securityHeaders } from './navigation-policy.js';
import { rendererFile, rendererOrigin, rendererScheme } from './renderer-files.js';
import { EmbeddedRestServer } from './rest-server.js';
import { appMenuTemplate } from './app-menu.js';
import { senderUrlForLog, untrustedSenderReason } from './ipc-sender-policy.js';
import { installWithSenderGuard } from './ipc-sender-guard.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const preloadPath = join(here, '..', 'preload', 'preload.cjs');
const rendererDir = join(here, '..', 'renderer');

// Before `ready`: the console's own secure origin, so its CSP comes as a response header
// (file:// responses have no headers to carry one).
protocol.registerSchemesAsPrivileged([{ scheme: rendererScheme, privileges: { standard: true, secure: true } }]);

let mainWindow: BrowserWindow | undefined;
// DevTools, Reload and their shortcuts exist in development only (`electron .`), never in a packaged app.
const devTools = !app.isPackaged;
const log = createLogger('warn');

function focusMainWindow(): void {
  if (!mainWindow) return;
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.focus();
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow(windowOptions(preloadPath, { devTools }));
  const { webContents } = window;
  webContents.on('will-navigate', (event, url) => {
    if (!navigationPolicy.allowNavigation(url)) event.preventDefault();
  });
  webContents.on('will-redirect', (event, url) => {
    if (!navigationPolicy.allowNavigation(url)) event.preventDefault();
  });
  webContents.setWindowOpenHandler(navigationPolicy.windowOpen);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(`${rendererOrigin}/`);
  return window;
}

async function start(): Promise<void> {
  // One app per user: a second launch hands over to the first (which focuses its window) and
  // quits before it touches the data dir, whose lock would refuse it anyway.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.on('second-instance', focusMainWindow);
  await app.whenReady();
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate({ devTools, platform: process.platform })));

  const headers = securityHeaders(contentSecurityPolicy);
  electronSession.defaultSession.protocol.handle(rendererScheme, async (request) => {
    const file = rendererFile(rendererDir, request.url);
    const body = file && (await readFile(file.path).catch(() => undefined));
    if (!file || !body) return new Response('not found', { status: 404, headers });
    return new Response(body, { headers: { ...headers, 'Content-Type': file.contentType } });
  });
  electronSession.defaultSession.setPermissionRequestHandler((_contents, permission, grant) => grant(navigationPolicy.allowPermission(permission)));

  const dataDir = join(app.getPath('userData'), 'data');
  // Named here, not left to the core's default, so the share form can name them (absolute).
  const localRoots = [join(dataDir, serverDefaults.localSharesDir)] as const;
  let dms: Dms;
  try {
    dms = await openDms({ role: 'service', dataDir, localRoots: [...localRoots] });
  } catch (error) {
    // Another dms (a `dms serve`, another user session) holds this data dir.
    const message = error instanceof DataDirInUseError ? error.message : `dms could not start: ${String(error)}`;
    dialog.showErrorBox('dms', message);
    app.exit(1);
    return;
  }
  if (dms.firstAdmin.generatedPassword) {
    // Shown once, as `dms serve` prints it once: the only way to learn the first password.
    await dialog.showMessageBox({ type: 'info', message: `First start: user admin, password ${dms.firstAdmin.generatedPassword}` });
  }

  // Off unless the user turned it on; a failure to listen is shown on the Settings screen, never fatal.
  const restServer = new EmbeddedRestServer({
    core: dms.core,
    snmpAgent: () => dms.snmpAgent(),
    settingsFile: join(app.getPath('userData'), 'desktop-settings.json'),
  });
  await restServer.start();

  // One desktop user per app: every window shares the main process's session.
  const session = new DesktopSession();
  const window = createWindow();
  mainWindow = window;
  // trpc-electron answers a message from any frame of any web contents: each one is checked
  // first, and only the console's own main frame on app://console reaches a procedure.
  installWithSenderGuard<Electron.IpcMainEvent>(ipcMain, {
    install: () =>
      createIPCHandler({
        router: appRouter,
        windows: [window],
        createContext: async () => ({
          core: dms.core,
          snmpAgent: () => dms.snmpAgent(),
          session,
          restServer,
          localRoots,
          openExternal: (url) => shell.openExternal(url),
        }),
      }),
    refuse: (event) => untrustedSenderReason(event, window),
    onDrop: (channel, reason, event) => log.warn({ channel, reason, frameUrl: senderUrlForLog(event) }, 'IPC message from an untrusted sender dropped'),
    expectedChannels: [ELECTRON_TRPC_CHANNEL],
  });

  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    // The REST server stops taking requests first, then the service closes: its workers stop,
    // its lock is released, the quit goes on.
    event.preventDefault();
    void restServer
      .stop()
      .finally(() => dms.close())
      .finally(() => app.exit(0));
  });
}

void start();
