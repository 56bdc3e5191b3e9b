import type { ChannelSend } from '../../ports/channel-sender.js';
import type { NotificationMessage } from '../../domain/notification-message.js';
import { postTo } from './post-json.js';
import { signWebhook } from './webhook-signature.js';

const json = { 'content-type': 'application/json' };

/** A webhook's body: Standard Webhooks' `type`, `timestamp` and `data`, with the event's `id`. */
export function webhookBody(message: NotificationMessage): string {
  return JSON.stringify({ id: message.id, type: message.type, timestamp: message.timestamp, level: message.level, source: message.source, data: message.data });
}

/** A signed POST of the event; the signature's time is the attempt's (receivers check it is recent). */
export const sendWebhook: ChannelSend = (channel, message, timeoutMs) => {
  const body = webhookBody(message);
  const secret = channel.secrets['secret'];
  if (!secret) return Promise.resolve({ ok: false, status_code: null, error: 'the webhook has no signing secret' });
  return postTo(String(channel.settings['url']), body, { ...json, ...signWebhook(secret, message.id, new Date(), body) }, timeoutMs);
};

/** ntfy's header values are ASCII: anything else is sent RFC 2047-encoded, which ntfy decodes. */
function headerText(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}

/** ntfy: the text as the body, the title and priority (1 min … 5 max, the level itself) as headers. */
export const sendNtfy: ChannelSend = (channel, message, timeoutMs) => {
  const token = channel.secrets['token'];
  const headers: Record<string, string> = {
    'content-type': 'text/plain; charset=utf-8',
    title: headerText(message.title),
    priority: String(message.level),
    tags: message.type === 'alert.cleared' ? 'white_check_mark' : message.type === 'digest' ? 'clipboard' : message.level >= 4 ? 'rotating_light' : 'bell',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  return postTo(String(channel.settings['url']), message.text, headers, timeoutMs);
};

/** Slack's mrkdwn takes `&`, `<` and `>` as markup: escaped, a message cannot make a link or a mention. */
const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Slack's incoming webhook: `text` (the notification's fallback) and a section block. */
export function slackBody(message: NotificationMessage): object {
  return {
    text: slackEscape(message.title),
    blocks: [{ type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(message.title)}*\n${slackEscape(message.text)}` } }],
  };
}

/** A colour per level, for the chat formats that take one. */
const levelColours = { 1: 0x439fe0, 2: 0x439fe0, 3: 0xdaa038, 4: 0xd00000, 5: 0x8b0000 } as const;

/** Discord's webhook: an embed, and no mention parsed from the text. */
export function discordBody(message: NotificationMessage): object {
  return {
    username: 'dms',
    allowed_mentions: { parse: [] },
    embeds: [
      {
        title: message.title.slice(0, 256),
        description: message.text.slice(0, 4_096),
        color: message.type === 'alert.cleared' ? 0x2eb886 : levelColours[message.level],
        timestamp: message.timestamp,
      },
    ],
  };
}

/** Teams (Workflows' "post to a channel when a webhook request is received"): a message with one Adaptive Card. */
export function teamsBody(message: NotificationMessage): object {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: message.title, weight: 'Bolder', wrap: true },
            { type: 'TextBlock', text: message.text, wrap: true },
          ],
        },
      },
    ],
  };
}

const chat =
  (format: (message: NotificationMessage) => object): ChannelSend =>
  (channel, message, timeoutMs) =>
    postTo(String(channel.settings['url']), JSON.stringify(format(message)), json, timeoutMs);

export const sendSlack = chat(slackBody);
export const sendDiscord = chat(discordBody);
export const sendTeams = chat(teamsBody);
