import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { installWithSenderGuard } from './ipc-sender-guard.js';

interface FakeEvent {
  trusted: boolean;
}

/** A real EventEmitter, as Electron's ipcMain is; the installer listens the way trpc-electron does. */
function setUp(options: { channels?: string[] } = {}) {
  const ipcMain = new EventEmitter();
  const handled: Array<{ channel: string; message: unknown }> = [];
  const dropped: Array<{ channel: string; reason: string }> = [];
  const earlier: unknown[] = [];
  ipcMain.on('trpc-electron', (_event: FakeEvent, message: unknown) => earlier.push(message));
  installWithSenderGuard<FakeEvent>(ipcMain, {
    install: () => {
      for (const channel of options.channels ?? ['trpc-electron'])
        ipcMain.on(channel, (_event: FakeEvent, message: unknown) => handled.push({ channel, message }));
    },
    refuse: (event) => (event.trusted ? undefined : 'a subframe'),
    onDrop: (channel, reason) => dropped.push({ channel, reason }),
    expectedChannels: ['trpc-electron'],
  });
  return { ipcMain, handled, dropped, earlier };
}

describe('finding 20.15: the sender guard around the IPC handler', () => {
  it('passes a trusted sender’s message to the handler with its arguments', () => {
    const { ipcMain, handled, dropped } = setUp();
    ipcMain.emit('trpc-electron', { trusted: true }, { method: 'request', id: 1 });
    expect(handled).toEqual([{ channel: 'trpc-electron', message: { method: 'request', id: 1 } }]);
    expect(dropped).toEqual([]);
  });

  it('drops and reports an untrusted sender’s message: the handler never sees it', () => {
    const { ipcMain, handled, dropped } = setUp();
    ipcMain.emit('trpc-electron', { trusted: false }, { method: 'request', id: 2 });
    expect(handled).toEqual([]);
    expect(dropped).toEqual([{ channel: 'trpc-electron', reason: 'a subframe' }]);
    // The handler's listener is replaced, not kept beside the guarded one.
    expect(ipcMain.listenerCount('trpc-electron')).toBe(2);
  });

  it('guards every channel the handler listens on, and leaves listeners that were there before alone', () => {
    const { ipcMain, handled, dropped, earlier } = setUp({ channels: ['trpc-electron', 'trpc-electron-extra'] });
    ipcMain.emit('trpc-electron-extra', { trusted: false }, 'x');
    expect(handled).toEqual([]);
    expect(dropped).toEqual([{ channel: 'trpc-electron-extra', reason: 'a subframe' }]);
    ipcMain.emit('trpc-electron', { trusted: false }, 'y');
    expect(earlier).toEqual(['y']);
  });

  it('fails at start when the handler listens on none of the expected channels (a guard around nothing)', () => {
    expect(() => setUp({ channels: ['renamed-channel'] })).toThrow(/did not listen on trpc-electron/);
  });
});
