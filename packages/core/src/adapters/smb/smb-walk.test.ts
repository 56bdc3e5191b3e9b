import { describe, expect, it } from 'vitest';
import { DriverError } from '../../ports/share-driver.js';
import { recordingAnalyticsSink } from '../../testing/recording-analytics-sink.js';
import { recordingRun, shareLocation } from '../../testing/recording-run.js';
import { defaultSmbWalkOptions, walkSmb, type SmbListingSession } from './smb-walk.js';
import { classifySmbLine } from './smb-status.js';
import { smbTarget } from './smb-target.js';

/**
 * The walk above its sessions: scripted smbclient answers stand in for a server whose smbd
 * process dies under a session (the SMB scan tests over Samba cover the real peer).
 */

const modified = 'Sun Nov 29 01:20:13 2026';
/** An `ls` entry line as smbclient prints it ("  %-30s%7.7s %8.0f  %s"). */
const entry = (name: string, attributes: string, size: number) => `  ${name.padEnd(30)}${attributes.padStart(7)} ${String(size).padStart(8)}  ${modified}`;
const dots = [entry('.', 'D', 0), entry('..', 'D', 0)];
const blocks = '\t\t1000 blocks of size 1024. 400 blocks available';
const disconnected = 'NT_STATUS_CONNECTION_DISCONNECTED';

/** The share: a root with a file and two directories, each with one file. */
const tree: Record<string, string[]> = {
  '': [...dots, entry('top.txt', 'A', 10), entry('a', 'D', 0), entry('b', 'D', 0), blocks],
  a: [...dots, entry('in-a.txt', 'A', 20), blocks],
  b: [...dots, entry('in-b.txt', 'A', 30), blocks],
};

/**
 * Sessions answering from `tree`; `answer` may replace the lines of the n-th listing of all
 * sessions (0-based, in the order they were asked), as a dropped session prints them.
 */
function scriptedServer(answer: (listing: number, dir: string, lines: string[]) => string[] = (_, __, lines) => lines) {
  let listings = 0;
  const opened: { killed: boolean; closed: boolean }[] = [];
  const open = (): SmbListingSession => {
    const state = { killed: false, closed: false };
    opened.push(state);
    return {
      list: async (dir, onLine) => {
        for (const line of answer(listings++, dir, tree[dir] ?? [])) onLine(line);
      },
      close: () => void (state.closed = true),
      kill: () => void (state.killed = true),
      closed: Promise.resolve(),
    };
  };
  return { open, opened };
}

const target = smbTarget(shareLocation('smb_v3', { host: 'nas', path: 'data', username: 'u', password: 'p' }));

function walk(server: ReturnType<typeof scriptedServer>, options: Partial<typeof defaultSmbWalkOptions> = {}) {
  const sink = recordingAnalyticsSink();
  const run = Object.assign(recordingRun(), { analytics: sink });
  const walked = walkSmb(
    server.open,
    (line) => classifySmbLine(line, target, 10_000),
    () => {},
    run,
    { ...defaultSmbWalkOptions, sessions: 1, progressIntervalMs: 0, ...options },
  );
  return { walked, sink };
}

const everyFile = ['/a/in-a.txt', '/b/in-b.txt', '/top.txt'];
const filePaths = (sink: ReturnType<typeof recordingAnalyticsSink>) => sink.files.map((file) => file.path).sort();

describe('an SMB walk whose server drops a session', () => {
  it('lists a directory again in a new session when the server dropped it before showing any of it', async () => {
    const server = scriptedServer((listing, dir, lines) => (listing === 1 ? [`${disconnected} listing \\${dir}\\*`] : lines));
    const { walked, sink } = walk(server);
    const result = await walked;
    expect(result.totals).toEqual({ file_count: 3, file_size_sum: 60, directories: 3 });
    expect(filePaths(sink)).toEqual(everyFile);
    expect(sink.directories.map((dir) => dir.path).sort()).toEqual(['/', '/a', '/b']);
    expect(server.opened.map((session) => session.killed)).toEqual([true, false]);
  });

  it('counts a listing once when only the free-space query after its entries lost the session, and goes on in a new one', async () => {
    const server = scriptedServer((listing, _, lines) => (listing === 0 ? [...lines.slice(0, -1), `Error in dskattr: ${disconnected}`] : lines));
    const { walked, sink } = walk(server);
    const result = await walked;
    expect(result.totals).toEqual({ file_count: 3, file_size_sum: 60, directories: 3 });
    expect(filePaths(sink)).toEqual(everyFile);
    expect(server.opened.map((session) => session.killed)).toEqual([true, false]);
  });

  it('fails with what smbclient said once the server has dropped more sessions than a walk replaces', async () => {
    const server = scriptedServer((listing, dir, lines) => (listing === 0 ? lines : [`${disconnected} listing \\${dir}\\*`]));
    const { walked } = walk(server, { replacedSessions: 2 });
    await expect(walked).rejects.toEqual(new DriverError(`cannot list path 'b' (${disconnected})`));
    // The first session listed the root, then lost 'b'; two more were given 'b' and lost it.
    expect(server.opened.map((session) => session.killed)).toEqual([true, true, true]);
  });

  it('fails when the session is dropped in the middle of a listing, whose first entries are counted already', async () => {
    const server = scriptedServer((listing, dir, lines) => (listing === 1 ? [...lines.slice(0, 3), `${disconnected} listing \\${dir}\\*`] : lines));
    const { walked } = walk(server);
    await expect(walked).rejects.toEqual(new DriverError(`cannot list path 'b' (${disconnected})`));
  });
});
