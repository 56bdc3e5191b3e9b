import type { MenuItemConstructorOptions } from 'electron';

export interface AppMenuOptions {
  /** Development only (`!app.isPackaged`): Reload and the DevTools, with their shortcuts. */
  devTools: boolean;
  platform: NodeJS.Platform;
}

/**
 * The application menu. Electron's default menu, and its `viewMenu` role, carry Toggle
 * Developer Tools with its shortcut (Ctrl+Shift+I, Alt+Cmd+I): in a packaged app that is a
 * console on the signed-in session for anyone at the keyboard, so the View menu is spelled out
 * here and gets the developer items only in development. `webPreferences.devTools` (see
 * window-options.ts) closes the same door for anything else that would open them.
 */
export function appMenuTemplate({ devTools, platform }: AppMenuOptions): MenuItemConstructorOptions[] {
  const developer: MenuItemConstructorOptions[] = devTools
    ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }]
    : [];
  return [
    // macOS puts About, Hide and Quit under the app's name; elsewhere File holds Quit.
    ...(platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { role: 'fileMenu' },
    // Cut, copy and paste shortcuts work in the page only through these items on macOS.
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [...developer, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
  ];
}
