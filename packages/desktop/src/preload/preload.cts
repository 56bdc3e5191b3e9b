// The whole preload: the IPC bridge of trpc-electron (`globalThis.electronTRPC` on channel
// `trpc-electron`), written out here because a sandboxed preload may require `electron` and
// nothing else, so trpc-electron's own `exposeElectronTRPC` cannot be loaded from node_modules.
// CommonJS (.cts) because a sandboxed preload cannot be an ES module. In a block: this file is
// a script, and its names must not leak into the global scope of the type checker.
{
  /** The IPC channel trpc-electron's main handler and renderer link use (ELECTRON_TRPC_CHANNEL). */
  const channel = 'trpc-electron';
  const electron = require('electron') as typeof import('electron');

  // The one global the renderer gets, under the name trpc-electron's `ipcLink` looks for: send
  // and receive on the one channel; no other IPC, no Node, no ipcRenderer itself.
  electron.contextBridge.exposeInMainWorld('electronTRPC', {
    sendMessage: (message: unknown): void => electron.ipcRenderer.send(channel, message),
    onMessage: (callback: (message: unknown) => void): void => {
      // The event is not passed on: it carries `sender`, a handle to ipcRenderer.
      electron.ipcRenderer.on(channel, (_event, message) => callback(message));
    },
  });
}
