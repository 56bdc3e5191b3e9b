import type { ChannelSenders } from '../../ports/channel-sender.js';
import { sendDiscord, sendNtfy, sendSlack, sendTeams, sendWebhook } from './http-channels.js';
import { sendEmail } from './email-channel.js';
import { sendSyslog } from './syslog-channel.js';
import { sendAlertmanager } from './alertmanager-channel.js';

/** Every channel type's sender. */
export const channelSenders: ChannelSenders = {
  webhook: sendWebhook,
  email: sendEmail,
  ntfy: sendNtfy,
  slack: sendSlack,
  discord: sendDiscord,
  teams: sendTeams,
  syslog: sendSyslog,
  alertmanager: sendAlertmanager,
};

export { newWebhookSecret, signWebhook } from './webhook-signature.js';
export { refreshAlertmanager } from './alertmanager-channel.js';
