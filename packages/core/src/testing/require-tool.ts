import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

/**
 * For tests that need a real component (smbd, snmptrapd, chromium …). Locally a missing
 * tool skips the suite with a printed reason; on CI (`CI=true`) it is an error, so a
 * missing install step in `.ci/run` cannot pass as green.
 */
export function findTool(name: string, extraDirs: string[] = ['/usr/sbin', '/sbin']): string | undefined {
  if (name.includes('/')) {
    try {
      accessSync(name, constants.X_OK);
      return name;
    } catch {
      return undefined;
    }
  }
  try {
    return (
      execFileSync('sh', ['-c', `command -v ${name}`], {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${process.env['PATH'] ?? ''}:${extraDirs.join(':')}` },
      }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

export interface ToolCheck {
  /** true when every tool is present; use as `describe.skipIf(!check.ok)`. */
  ok: boolean;
  paths: Record<string, string>;
  reason: string;
}

export function requireTools(names: string[], install: string): ToolCheck {
  const paths: Record<string, string> = {};
  const missing: string[] = [];
  for (const name of names) {
    const path = findTool(name);
    if (path) paths[name] = path;
    else missing.push(name);
  }
  if (missing.length === 0) return { ok: true, paths, reason: '' };
  const reason = `missing ${missing.join(', ')} (install: ${install})`;
  if (process.env['CI'] === 'true') throw new Error(`CI needs ${reason}`);
  console.warn(`[skip] ${reason}`);
  return { ok: false, paths, reason };
}
