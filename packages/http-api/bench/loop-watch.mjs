// How late a 10 ms timer fires while work runs on the same event loop: the worst lateness and
// the stalls over 50 ms, counted only while resumed (between pause() and resume() it idles).
// Beside it, the most CPU the thread spent between two ticks (process.threadCpuUsage): on a
// loaded machine a tick is also late when the thread waited for a core, and this tells apart
// what the code itself held the loop for.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const TICK_MS = 10;
const STALL_MS = 50;

export function startLoopWatch() {
  let maxMs = 0;
  let stallsOver50Ms = 0;
  let busyMaxMs = 0;
  let samples = 0;
  let timer;
  let last = 0;
  let lastCpu = 0;
  const threadCpuMs = () => {
    const { user, system } = process.threadCpuUsage();
    return (user + system) / 1000;
  };
  const tick = () => {
    const now = performance.now();
    const late = Math.max(0, now - last - TICK_MS);
    const cpu = threadCpuMs();
    if (cpu - lastCpu > busyMaxMs) busyMaxMs = cpu - lastCpu;
    last = now;
    lastCpu = cpu;
    samples += 1;
    if (late > maxMs) maxMs = late;
    if (late > STALL_MS) stallsOver50Ms += 1;
  };
  const watch = {
    resume() {
      if (timer !== undefined) return;
      last = performance.now();
      lastCpu = threadCpuMs();
      timer = setInterval(tick, TICK_MS);
    },
    pause() {
      clearInterval(timer);
      timer = undefined;
    },
    /** Folds in another watch's figures (a child process's). */
    add(other) {
      maxMs = Math.max(maxMs, other.maxMs);
      busyMaxMs = Math.max(busyMaxMs, other.busyMaxMs);
      stallsOver50Ms += other.stallsOver50Ms;
      samples += other.samples;
    },
    stop() {
      watch.pause();
      return { maxMs, stallsOver50Ms, busyMaxMs, samples };
    },
  };
  return watch;
}

/**
 * The same watch in an idle process of its own, resumed and paused with the scans: how late a
 * timer fires there says what the machine's load alone does to an event loop in those moments.
 */
export async function startIdleProcessWatch() {
  const child = fork(fileURLToPath(import.meta.url), ['--idle-process'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await once(child, 'message');
  return {
    resume: () => child.send('resume'),
    pause: () => child.send('pause'),
    async stop() {
      child.send('stop');
      const [figures] = await once(child, 'message');
      return figures;
    },
  };
}

if (process.argv[2] === '--idle-process' && process.send) {
  const watch = startLoopWatch();
  process.on('message', (command) => {
    if (command === 'resume') watch.resume();
    else if (command === 'pause') watch.pause();
    else if (command === 'stop') process.send(watch.stop(), () => process.disconnect());
  });
  process.send('ready');
}
