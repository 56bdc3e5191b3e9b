// The Node.js runtime the repository's commands run on. dms supports the Node lines that are
// alive (package.json `engines.node`); the system's node is used when it is one of them, else the
// version pinned in `.node-version` is fetched once from the npm registry (the `node-<os>-<cpu>`
// packages: the official binary with its C headers, for node-gyp) into `.runtime/`, once its
// sha512 is the one pinned in `.node-integrity.json`. Nothing here needs node_modules: it runs
// before the first install. Reasoning: docs/decisions/008-node-runtime.md, 120 and 121.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedIntegrity, pinsFile, readPins, unpackVerified } from './node-integrity.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pinned = readFileSync(join(root, '.node-version'), 'utf8').trim();
const enginesRange = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;

/** `engines.node` holds only `^X.Y.Z` alternatives (one per live LTS line); enough to check them without semver. */
export function satisfiesEngines(version, range = enginesRange) {
  const [major, minor, patch] = version.replace(/^v/, '').split('.').map(Number);
  return range.split('||').some((alternative) => {
    const match = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(alternative);
    if (!match) throw new Error(`package.json engines.node: only "^X.Y.Z || …" is understood here, not "${alternative.trim()}"`);
    const [want, wantMinor, wantPatch] = match.slice(1).map(Number);
    return major === want && (minor > wantMinor || (minor === wantMinor && patch >= wantPatch));
  });
}

/**
 * Node versions inside `engines` that dms cannot run on: a system node in such a range is passed
 * over for the pinned one. None today (better-sqlite3 12 aborted on 24.19+, nodejs/node#65446;
 * better-sqlite3 13 is Node-API and runs on every line): an entry is
 * `{ from: [24, 19, 0], below: [25, 0, 0], why: '…' }`.
 */
const unusable = [];

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Why dms cannot run on `version` although `engines` admits it; undefined when it can. */
export function unusableReason(version) {
  const parts = version.replace(/^v/, '').split('.').map(Number);
  return unusable.find((range) => compare(parts, range.from) >= 0 && compare(parts, range.below) < 0)?.why;
}

/** The registry package holding the pinned node for this machine, or undefined where there is none we use. */
function runtimePackage() {
  const os = { linux: 'linux', darwin: 'darwin' }[process.platform];
  const cpu = { x64: 'x64', arm64: 'arm64' }[process.arch];
  return os && cpu ? `node-${os}-${cpu}` : undefined;
}

/** Where Node `version` is unpacked for this machine. */
export const runtimeDirFor = (version) => join(root, '.runtime', `node-${version}-${process.platform}-${process.arch}`);
export const runtimeDir = runtimeDirFor(pinned);

/**
 * Where the node to run on lives: `{ system: true }` when this process's node satisfies
 * `engines`, else `{ bin, dir }` of the pinned runtime, fetched on first use. Exits with one line
 * saying what to install when neither is possible.
 */
export function ensureRuntime() {
  const why = satisfiesEngines(process.version) ? unusableReason(process.version) : `dms needs Node.js ${enginesRange}`;
  if (!why) return { system: true };
  return ensureNode(pinned, why);
}

/**
 * Node `version` (one pinned in `.node-integrity.json`), fetched on first use: the pinned runtime,
 * or another line CI runs tests on (`.ci/run`).
 */
export function ensureNode(version, why = `this run asks for Node ${version}`) {
  const dir = runtimeDirFor(version);
  if (!existsSync(join(dir, 'bin', 'node'))) fetchRuntime(version, why);
  return { system: false, dir, bin: join(dir, 'bin') };
}

/**
 * `.runtime/current` names the runtime node_modules was installed with, for scripts/dms (the unit
 * in contrib/ and `npx dms` run it); no link when that is the system's node.
 */
export function linkCurrent(runtime) {
  link(join(root, '.runtime', 'current'), runtime.system ? undefined : basename(runtime.dir));
}

/** Makes `path` a symlink to `target` (none: no link), replacing what is there. */
export function link(path, target) {
  let now;
  try {
    if (lstatSync(path).isSymbolicLink()) now = readlinkSync(path);
    else if (target !== undefined) rmSync(path);
  } catch {
    // nothing there
  }
  if (now === target) return;
  if (now !== undefined) rmSync(path);
  if (target !== undefined) {
    mkdirSync(dirname(path), { recursive: true });
    symlinkSync(target, path);
  }
}

function fetchRuntime(version, why) {
  const name = runtimePackage();
  if (!name) fail(`this is Node ${process.version} on ${process.platform}-${process.arch}, and ${why}: install Node ${version} and run again.`);
  const integrity = pinnedIntegrity(readPins(root), name, version);
  if (!integrity)
    fail(`this is Node ${process.version} (${why}) and no integrity of ${name}@${version} is pinned in ${pinsFile}: install Node ${version} and run again.`);
  console.error(`[dms] this is Node ${process.version} (${why}): fetching Node ${version} from the npm registry into .runtime/, once ...`);
  const dir = runtimeDirFor(version);
  mkdirSync(dirname(dir), { recursive: true });
  const scratch = mkdtempSync(join(dirname(dir), '.fetch-'));
  try {
    // npm pack honours the user's npm config (registry, proxy, cache); what it brings is checked
    // against the pin in the repository, not against the registry's own word.
    const file = execFileSync('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', scratch], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop();
    unpackVerified(join(scratch, file), integrity, scratch);
    renameSync(join(scratch, 'package'), dir);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    fail(
      `this is Node ${process.version} (${why}) and Node ${version} could not be fetched from the npm registry (${error.message.split('\n')[0]}): install Node ${version} and run again.`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * The environment for commands run on `runtime`: its bin first on PATH (npm's child scripts, turbo
 * tasks and node-gyp find that node), and node-gyp pointed at its headers (no download). The
 * system's node gets its own headers too where they lie beside it: an npm `nodedir` set for
 * another node (a distribution's Node 20 in /usr, with a Node 22 first on PATH) would build
 * better-sqlite3 for the wrong ABI.
 */
export function runtimeEnv(runtime, env = process.env) {
  if (runtime.system) {
    const prefix = dirname(dirname(process.execPath));
    return existsSync(join(prefix, 'include', 'node', 'node.h')) ? { ...env, npm_config_nodedir: prefix } : { ...env };
  }
  return { ...env, PATH: `${runtime.bin}${delimiter}${env.PATH ?? ''}`, npm_config_nodedir: runtime.dir };
}

function fail(line) {
  console.error(`[dms] ${line}`);
  process.exit(1);
}
