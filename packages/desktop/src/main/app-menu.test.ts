import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate } from './app-menu.js';

function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
}
const roles = (template: MenuItemConstructorOptions[]) => items(template).flatMap((item) => (item.role ? [item.role] : []));

// Electron's own roles whose submenu holds Toggle Developer Tools.
const rolesWithDevTools = ['toggleDevTools', 'viewMenu'];

describe('finding 20.15: application menu', () => {
  it.each(['linux', 'win32', 'darwin'] as const)('has no DevTools (item, View role or shortcut) in a packaged app on %s', (platform) => {
    const template = appMenuTemplate({ devTools: false, platform });
    for (const role of rolesWithDevTools) expect(roles(template)).not.toContain(role);
    expect(roles(template)).not.toContain('reload');
    expect(roles(template)).not.toContain('forceReload');
    for (const item of items(template)) expect(String(item.accelerator ?? '')).not.toMatch(/Shift\+I$|Alt\+.*I$|F12/i);
    // What a user needs stays: quit, copy and paste, zoom, full screen.
    expect(roles(template)).toEqual(expect.arrayContaining(['fileMenu', 'editMenu', 'windowMenu', 'zoomIn', 'zoomOut', 'resetZoom', 'togglefullscreen']));
  });

  it('keeps Reload and DevTools in development', () => {
    expect(roles(appMenuTemplate({ devTools: true, platform: 'linux' }))).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']));
  });

  it('puts the app menu first on macOS only', () => {
    expect(appMenuTemplate({ devTools: false, platform: 'darwin' })[0]).toEqual({ role: 'appMenu' });
    expect(roles(appMenuTemplate({ devTools: false, platform: 'linux' }))).not.toContain('appMenu');
  });
});
