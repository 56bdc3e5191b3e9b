import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

interface Bridge {
  sendMessage(message: unknown): void;
  onMessage(callback: (message: unknown) => void): void;
}

/**
 * Runs the preload as Electron's sandbox does: a script whose `require` knows only `electron`,
 * here a fake one that records what is exposed and what crosses IPC.
 */
function loadPreload() {
  const source = readFileSync(new URL('./preload.cts', import.meta.url), 'utf8');
  const script = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exposed = new Map<string, unknown>();
  const sent: Array<{ channel: string; message: unknown }> = [];
  const listeners = new Map<string, (event: unknown, message: unknown) => void>();
  const required: string[] = [];
  const electron = {
    contextBridge: { exposeInMainWorld: (name: string, api: unknown) => exposed.set(name, api) },
    ipcRenderer: {
      send: (channel: string, message: unknown) => sent.push({ channel, message }),
      on: (channel: string, listener: (event: unknown, message: unknown) => void) => listeners.set(channel, listener),
    },
  };
  const require = (name: string) => {
    required.push(name);
    if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
    return electron;
  };
  runInNewContext(script, { require, module: { exports: {} }, exports: {} });
  return { exposed, sent, listeners, required };
}

describe('preload surface', () => {
  it('requires electron only and exposes one global, electronTRPC', () => {
    const { exposed, required } = loadPreload();
    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['electronTRPC']);
  });

  it('offers sendMessage and onMessage only', () => {
    const bridge = loadPreload().exposed.get('electronTRPC') as Bridge;
    expect(Object.keys(bridge).sort()).toEqual(['onMessage', 'sendMessage']);
  });

  it("sends on trpc-electron's channel and passes messages on without the IPC event", () => {
    const { exposed, sent, listeners } = loadPreload();
    const bridge = exposed.get('electronTRPC') as Bridge;
    bridge.sendMessage({ method: 'request' });
    expect(sent).toEqual([{ channel: 'trpc-electron', message: { method: 'request' } }]);
    const received: unknown[] = [];
    bridge.onMessage((message) => received.push(message));
    expect([...listeners.keys()]).toEqual(['trpc-electron']);
    listeners.get('trpc-electron')?.({ sender: 'ipcRenderer handle' }, { id: 1 });
    expect(received).toEqual([{ id: 1 }]);
  });
});

describe('trpc-electron compatibility', () => {
  it("uses the channel trpc-electron's link listens on", async () => {
    const { ELECTRON_TRPC_CHANNEL } = await import('trpc-electron/renderer');
    const { sent, exposed } = loadPreload();
    (exposed.get('electronTRPC') as Bridge).sendMessage('ping');
    expect(sent[0]?.channel).toBe(ELECTRON_TRPC_CHANNEL);
  });
});
