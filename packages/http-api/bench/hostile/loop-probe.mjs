// Preloaded into the dms server under test (`node --import loop-probe.mjs … serve`): the
// event loop's delay histogram (perf_hooks.monitorEventLoopDelay), reset and read by the bench
// over the IPC channel. It adds a 10 ms-resolution timer and nothing else to the server.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();

process.on('message', (message) => {
  if (message?.type === 'reset') {
    histogram.reset();
    process.send?.({ type: 'reset' });
  } else if (message?.type === 'read') {
    process.send?.({ type: 'read', loopDelayMaxMs: histogram.max / 1e6, loopDelayP99Ms: histogram.percentile(99) / 1e6 });
  }
});
// The channel must not keep a stopping server alive.
process.channel?.unref();
