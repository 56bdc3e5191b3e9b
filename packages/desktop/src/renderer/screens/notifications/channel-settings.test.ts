import { describe, expect, it } from 'vitest';
import { settingsBody, settingText } from './channel-settings.js';

const formData = (entries: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
};

describe('settingsBody', () => {
  const email = {
    host: ' smtp.example.com ',
    port: '465',
    security: 'tls',
    username: '',
    password: '',
    from: 'dms@example.com',
    to: 'a@example.com,\n b@example.com ,',
    ca: '',
  };

  it('sends a new channel what was typed, leaves out the empty optional fields and secrets, and splits the addresses', () => {
    expect(settingsBody('email', formData(email), false)).toEqual({
      host: 'smtp.example.com',
      port: 465,
      security: 'tls',
      from: 'dms@example.com',
      to: ['a@example.com', 'b@example.com'],
    });
  });

  it('on edit, clears an emptied optional field, keeps a secret left empty, and removes one asked to', () => {
    expect(settingsBody('email', formData(email), true)).toMatchObject({ username: null, ca: null });
    expect(settingsBody('email', formData(email), true)).not.toHaveProperty('password');
    expect(settingsBody('ntfy', formData({ url: 'https://ntfy.sh/t', token: '', remove_token: 'on' }), true)).toEqual({
      url: 'https://ntfy.sh/t',
      token: null,
    });
    expect(settingsBody('ntfy', formData({ url: 'https://ntfy.sh/t', token: 'tk_1' }), true)).toEqual({ url: 'https://ntfy.sh/t', token: 'tk_1' });
  });

  it('sends a port that is not a number as typed, for the core to name it; an empty port is left to the default', () => {
    expect(settingsBody('syslog', formData({ host: 'logs', port: '51a', transport: 'tcp', facility: 'local3', ca: '' }), false)).toEqual({
      host: 'logs',
      port: '51a',
      transport: 'tcp',
      facility: 'local3',
    });
    expect(settingsBody('syslog', formData({ host: 'logs', port: '', transport: 'udp', facility: 'daemon' }), false)).not.toHaveProperty('port');
  });

  it('takes only the fields of the type', () => {
    expect(settingsBody('webhook', formData({ url: 'https://hooks.example.com', host: 'ignored' }), false)).toEqual({ url: 'https://hooks.example.com' });
  });
});

describe('settingText', () => {
  it('shows a list joined, a number as text, and nothing for what is not there', () => {
    expect([settingText(['a@x.org', 'b@x.org']), settingText(587), settingText(null), settingText(undefined)]).toEqual(['a@x.org, b@x.org', '587', '', '']);
  });
});
