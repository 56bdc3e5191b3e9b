import { describe, expect, it } from 'vitest';
import { shareLocation } from '../../testing/recording-run.js';
import { classifySmbLine, vanishedStatuses } from './smb-status.js';
import { smbTarget } from './smb-target.js';

// Lines as smbclient 4.17 prints them (captured from a real Samba).
const target = smbTarget(shareLocation('smb_v3', { host: 'nas1', path: 'data/a/b', username: 'alice', options: { port: '445' } }));
const classify = (line: string) => classifySmbLine(line, target, 10_000);

describe('classifySmbLine', () => {
  it.each([
    [
      'protocol negotiation failed: NT_STATUS_INVALID_NETWORK_RESPONSE',
      'negotiate_protocol',
      "host 'nas1' does not speak SMB 3 (protocol negotiation failed: NT_STATUS_INVALID_NETWORK_RESPONSE)",
    ],
    ['do_connect: Connection to 127.0.0.1 failed (Error NT_STATUS_CONNECTION_REFUSED)', 'negotiate_protocol', "connection refused by host 'nas1' on port 445"],
    ['session setup failed: NT_STATUS_LOGON_FAILURE', 'authenticate', "authentication failed for user 'alice'"],
    ['session setup failed: NT_STATUS_ACCOUNT_DISABLED', 'authenticate', "the account of user 'alice' is disabled"],
    ['tree connect failed: NT_STATUS_BAD_NETWORK_NAME', 'open_path', "share 'data' not found on host 'nas1'"],
    ['tree connect failed: NT_STATUS_ACCESS_DENIED', 'open_path', "access to share 'data' denied for user 'alice'"],
    ['cd \\a\\b\\: NT_STATUS_OBJECT_PATH_NOT_FOUND', 'open_path', "path 'data/a/b' not found on share"],
    ['cd \\a\\b\\: NT_STATUS_NOT_A_DIRECTORY', 'open_path', "path 'data/a/b' is not a directory"],
    ['NT_STATUS_ACCESS_DENIED listing \\a\\b\\locked\\*', 'list', "listing path 'a/b/locked' denied for user 'alice'"],
  ])('%s', (line, step, message) => {
    expect(classify(line)).toMatchObject({ step, message });
  });

  it('marks a directory that vanished mid-listing as such', () => {
    const found = classify('NT_STATUS_OBJECT_NAME_NOT_FOUND listing \\a\\b\\gone\\*');
    expect(found?.step).toBe('list');
    expect(vanishedStatuses.has(found?.status ?? '')).toBe(true);
  });

  it('never reads a file name as a failure', () => {
    expect(classify('  NT_STATUS_ACCESS_DENIED listing x      N        5  Sat Nov 21 19:35:18 2026')).toBeUndefined();
    expect(classify('\\a\\session setup failed: NT_STATUS_LOGON_FAILURE')).toBeUndefined();
    expect(classify('Error reading password from file descriptor 3: empty password')).toBeUndefined();
  });
});
