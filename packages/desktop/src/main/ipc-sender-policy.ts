import { rendererOrigin } from './renderer-files.js';

/** The slice of Electron's `IpcMainEvent` the sender check reads. */
export interface IpcSenderEvent {
  sender: { id: number };
  /** null once the frame that sent the message has navigated away or been destroyed. */
  senderFrame: IpcSenderFrame | null;
}

/** The slice of Electron's `WebFrameMain` the sender check reads. */
export interface IpcSenderFrame {
  url: string;
  parent: unknown;
  processId: number;
  routingId: number;
}

/** The slice of Electron's `BrowserWindow` the sender check reads: the app's one window. */
export interface TrustedWindow {
  isDestroyed(): boolean;
  webContents: { id: number; mainFrame: { processId: number; routingId: number } };
}

/**
 * Why a message did not come from the console itself, or undefined when it did: the window's
 * own web contents, its current main frame (no iframe, no frame left over from a navigation),
 * showing the app's own origin. trpc-electron answers any sender; this is the only gate before
 * a procedure runs with the desktop session.
 */
export function untrustedSenderReason(event: IpcSenderEvent, window: TrustedWindow): string | undefined {
  try {
    if (window.isDestroyed()) return 'the window is closed';
    if (event.sender.id !== window.webContents.id) return 'another web contents';
    const frame = event.senderFrame;
    if (!frame) return 'a frame that is gone';
    if (frame.parent !== null) return 'a subframe';
    const main = window.webContents.mainFrame;
    if (frame.processId !== main.processId || frame.routingId !== main.routingId) return 'not the current main frame';
    if (originOf(frame.url) !== rendererOrigin) return 'another origin';
    return undefined;
  } catch {
    // Electron throws when a disposed frame is read: a sender that cannot be checked is refused.
    return 'a sender that cannot be checked';
  }
}

export function isTrustedSender(event: IpcSenderEvent, window: TrustedWindow): boolean {
  return untrustedSenderReason(event, window) === undefined;
}

// Not URL#origin: WHATWG gives the opaque "null" for a scheme it does not know, such as app:.
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return undefined;
  }
}

/** The sender frame's URL for a log line, bounded; undefined when the frame is gone or unreadable. */
export function senderUrlForLog(event: IpcSenderEvent, maxLength = 200): string | undefined {
  try {
    return event.senderFrame?.url.slice(0, maxLength);
  } catch {
    return undefined;
  }
}
