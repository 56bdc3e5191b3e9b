// Summary of a .cpuprofile: hottest functions by self time, files/packages, inclusive time.
import { readFileSync } from 'node:fs';

export function summarizeProfile(file, top = 25) {
  void top;
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    self.set(node.id, (self.get(node.id) ?? 0) + (dt[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const fn = new Map();
  const files = new Map();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const short = url.replace(/^file:\/\/\/work\/main\//, '').replace(/^.*node_modules\//, 'nm/');
    const key = `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
    fn.set(key, (fn.get(key) ?? 0) + us);
    const pkg = short.startsWith('nm/')
      ? short
          .split('/')
          .slice(0, short.startsWith('nm/@') ? 3 : 2)
          .join('/')
      : short || `(${functionName})`;
    files.set(pkg, (files.get(pkg) ?? 0) + us);
  }
  // Inclusive: every distinct frame on a sample's stack gets the sample's time once.
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map();
  for (const [id, us] of self) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const { functionName, url, lineNumber } = byId.get(cur).callFrame;
      const short = url.replace(/^file:\/\/\/work\/main\//, '').replace(/^.*node_modules\//, 'nm/');
      const key = `${functionName || '(anonymous)'} ${short}:${lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  const show = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  return `total sampled ${(total / 1e6).toFixed(2)} s\n-- self time by function --\n${show(fn)}\n-- self time by file/package --\n${show(files)}\n-- inclusive time by function (dms code and middleware) --\n${show(new Map([...inclusive].filter(([k]) => /packages\/|hono|kysely|better-sqlite3|pino|prom-client|rate-limiter/.test(k))), 45)}`;
}
