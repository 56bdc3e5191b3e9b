/** The slice of Electron's `ipcMain` (an EventEmitter) the guard rewires. */
export interface IpcListenerRegistry {
  eventNames(): Array<string | symbol>;
  listeners(channel: string | symbol): Function[];
  on(channel: string | symbol, listener: (...args: unknown[]) => void): unknown;
  removeListener(channel: string | symbol, listener: (...args: unknown[]) => void): unknown;
}

export interface IpcSenderGuardOptions<E> {
  /** Registers the handler whose listeners are to be guarded (trpc-electron's createIPCHandler). */
  install: () => void;
  /** Why a message's sender is refused, or undefined to let the message through. */
  refuse: (event: E) => string | undefined;
  /** Told of each dropped message; the message itself is never passed on. */
  onDrop: (channel: string, reason: string, event: E) => void;
  /** Channels the handler must listen on: a library that stops doing so fails here, not silently. */
  expectedChannels: readonly string[];
}

/**
 * Runs `install`, then puts the sender check in front of every `ipcMain` listener it added, on
 * whichever channel: the library keeps its own code, and no message reaches it unchecked.
 * A handler that listens on none of the expected channels throws, since a guard around nothing
 * would look like protection and be none.
 */
export function installWithSenderGuard<E>(ipcMain: IpcListenerRegistry, options: IpcSenderGuardOptions<E>): void {
  const before = new Map(ipcMain.eventNames().map((name) => [name, new Set(ipcMain.listeners(name))]));
  options.install();
  const guarded = new Set<string | symbol>();
  for (const channel of ipcMain.eventNames()) {
    const known = before.get(channel) ?? new Set<Function>();
    for (const listener of ipcMain.listeners(channel).filter((l) => !known.has(l))) {
      const original = listener as (...args: unknown[]) => void;
      ipcMain.removeListener(channel, original);
      ipcMain.on(channel, (...args: unknown[]) => {
        const event = args[0] as E;
        const reason = options.refuse(event);
        if (reason === undefined) original(...args);
        else options.onDrop(String(channel), reason, event);
      });
      guarded.add(channel);
    }
  }
  const missing = options.expectedChannels.filter((channel) => !guarded.has(channel));
  if (missing.length > 0) throw new Error(`the IPC handler did not listen on ${missing.join(', ')}: its sender check would guard nothing`);
}
