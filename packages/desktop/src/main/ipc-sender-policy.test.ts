import { describe, expect, it } from 'vitest';
import { isTrustedSender, senderUrlForLog, untrustedSenderReason, type IpcSenderEvent, type IpcSenderFrame, type TrustedWindow } from './ipc-sender-policy.js';

// The app's window: web contents 7, its main frame routing id 1 in renderer process 42.
function appWindow(overrides: { destroyed?: boolean } = {}): TrustedWindow {
  return { isDestroyed: () => overrides.destroyed ?? false, webContents: { id: 7, mainFrame: { processId: 42, routingId: 1 } } };
}
const mainFrame: IpcSenderFrame = { url: 'app://console/', parent: null, processId: 42, routingId: 1 };
const fromFrame = (frame: Partial<IpcSenderFrame> | null, senderId = 7): IpcSenderEvent => ({
  sender: { id: senderId },
  senderFrame: frame === null ? null : { ...mainFrame, ...frame },
});

describe('finding 20.15: IPC sender check', () => {
  it('accepts the window’s own main frame on app://console, on any page of the console', () => {
    expect(isTrustedSender(fromFrame({}), appWindow())).toBe(true);
    expect(isTrustedSender(fromFrame({ url: 'app://console/index.html#/users' }), appWindow())).toBe(true);
  });

  it.each([
    ['an iframe of the console', fromFrame({ parent: mainFrame, routingId: 5 }), 'a subframe'],
    ['an iframe claiming the main frame’s ids', fromFrame({ parent: mainFrame }), 'a subframe'],
    ['a frame left over from a navigation', fromFrame({ routingId: 2 }), 'not the current main frame'],
    ['the main frame in another renderer process', fromFrame({ processId: 43 }), 'not the current main frame'],
    ['a frame already gone', fromFrame(null), 'a frame that is gone'],
    ['another web contents (a second window, a webview)', fromFrame({}, 8), 'another web contents'],
    ['a remote page', fromFrame({ url: 'https://evil.example/' }), 'another origin'],
    ['a local file', fromFrame({ url: 'file:///home/u/page.html' }), 'another origin'],
    ['another host of the app scheme', fromFrame({ url: 'app://console.evil/' }), 'another origin'],
    ['userinfo that hides another host', fromFrame({ url: 'app://console@evil/' }), 'another origin'],
    ['an about:blank document', fromFrame({ url: 'about:blank' }), 'another origin'],
    ['a data: URL', fromFrame({ url: 'data:text/html,<script>1</script>' }), 'another origin'],
    ['an unparsable URL', fromFrame({ url: '' }), 'another origin'],
  ])('drops a message from %s', (_name, event, reason) => {
    expect(untrustedSenderReason(event, appWindow())).toBe(reason);
    expect(isTrustedSender(event, appWindow())).toBe(false);
  });

  it('drops every message once the window is closed', () => {
    expect(untrustedSenderReason(fromFrame({}), appWindow({ destroyed: true }))).toBe('the window is closed');
  });

  it('drops a message whose frame cannot be read (Electron throws for a disposed frame)', () => {
    const disposed = {
      sender: { id: 7 },
      get senderFrame(): IpcSenderFrame {
        throw new Error('Render frame was disposed before WebFrameMain could be accessed');
      },
    };
    expect(untrustedSenderReason(disposed, appWindow())).toBe('a sender that cannot be checked');
    // Logging the drop must not throw either: it runs inside ipcMain's listener.
    expect(senderUrlForLog(disposed)).toBeUndefined();
  });

  it('logs at most 200 characters of a sender’s URL', () => {
    expect(senderUrlForLog(fromFrame({ url: `https://evil.example/${'a'.repeat(5000)}` }))).toHaveLength(200);
    expect(senderUrlForLog(fromFrame(null))).toBeUndefined();
  });
});
