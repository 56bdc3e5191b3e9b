import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, windowOptions } from './window-options.js';
import { navigationPolicy, securityHeaders } from './navigation-policy.js';

const directives = new Map(
  contentSecurityPolicy.split('; ').map((directive) => {
    const [name = '', ...values] = directive.split(' ');
    return [name, values] as const;
  }),
);

describe('window options', () => {
  it('isolates and sandboxes the renderer, with no Node anywhere', () => {
    expect(windowOptions('/app/preload.cjs', { devTools: false }).webPreferences).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('finding 20.15: a packaged app cannot open DevTools at all, by shortcut, menu or call; development can', () => {
    expect(windowOptions('/app/preload.cjs', { devTools: false }).webPreferences?.devTools).toBe(false);
    expect(windowOptions('/app/preload.cjs', { devTools: true }).webPreferences?.devTools).toBe(true);
  });
});

describe('content security policy', () => {
  it('denies by default and allows only the bundle itself', () => {
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
  });

  it('allows no eval, inline script, network, frames or plugins', () => {
    expect(contentSecurityPolicy).not.toMatch(/unsafe-(eval|inline)|\*|https?:/);
    for (const name of ['connect-src', 'frame-src', 'frame-ancestors', 'object-src', 'base-uri', 'form-action']) {
      expect(directives.get(name), name).toEqual(["'none'"]);
    }
  });

  it('is sent as a response header with nosniff', () => {
    expect(securityHeaders(contentSecurityPolicy)).toEqual({ 'Content-Security-Policy': contentSecurityPolicy, 'X-Content-Type-Options': 'nosniff' });
  });
});

describe('navigation policy', () => {
  it('refuses navigation, new windows and permissions', () => {
    for (const url of ['https://example.com/', 'file:///etc/passwd', 'javascript:alert(1)']) {
      expect(navigationPolicy.allowNavigation(url)).toBe(false);
      expect(navigationPolicy.windowOpen({ url })).toEqual({ action: 'deny' });
    }
    expect(navigationPolicy.allowPermission('notifications')).toBe(false);
    expect(navigationPolicy.allowPermission('clipboard-read')).toBe(false);
    expect(navigationPolicy.allowPermission('clipboard-sanitized-write')).toBe(true);
  });
});
