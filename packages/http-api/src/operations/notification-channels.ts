import {
  channelCollectionSchema,
  channelCreateSchema,
  channelCreatedSchema,
  channelListSpec,
  channelSchema,
  channelTestResultSchema,
  channelUpdateSchema,
  deliveryCollectionSchema,
  deliveryListSpec,
} from '@dms/core';
import { respondJson } from '../http/respond.js';
import { rawQuery } from '../http/raw-query.js';
import { listQueryParameters } from '../contracts/list-query-parameters.js';
import {
  collectionExample,
  notificationChannelCreateExample,
  notificationChannelCreatedExample,
  notificationChannelExample,
  notificationChannelUpdateExample,
  notificationDeliveryExample,
  notificationTestExample,
} from '../contracts/examples.js';
import { defineOperation } from './operation.js';
import { crudOperations } from './crud-operations.js';

const adminOnly = 'Admin-only: an admin user, or an API key with the scope whose creator is an admin.';

const types =
  '`type` is `webhook` (`settings.url`; the body is signed the Standard Webhooks way with the `secret` answered once by the create), `email` (`host`, `port`, `security` `starttls`|`tls`, `username`, `password`, `from`, `to`, `ca`), `ntfy` (`url` of the topic, `token`), `slack`, `discord` or `teams` (`url` of the incoming webhook), `syslog` (`host`, `port` 514, `transport` `udp`|`tcp`|`tls`, `facility`, `ca`; RFC 5424) or `alertmanager` (`url` of a Prometheus Alertmanager, `token`; alerts only, sent again each minute while open). URLs are http(s) only. `password` and `token` are write-only: sealed at rest, never answered, audited as "changed". `min_level` (1 info … 5 critical, default 3) and `sources` (alert sources and `share_test_completed`, `share_test_failed`, `share_scan_completed`, `share_scan_failed`; null: all) choose what is sent; `digest` is `immediately` (default), `hourly` (one message on the hour listing that hour’s events) or `daily` (one at `digest_hour`, 0-23 UTC, default 8, listing the 24 hours before); an `alertmanager` channel is always `immediately`.';

/** `/notification_channels` (docs/api.md#notification-channels): where alerts and job outcomes are sent. */
export const notificationChannelOperations = [
  ...crudOperations({
    path: '/notification_channels',
    param: 'notification_channel_id',
    tag: 'notifications',
    controller: 'notification_channels',
    noun: 'notification channel',
    query: listQueryParameters(channelListSpec),
    schemas: {
      item: channelSchema,
      created: channelCreatedSchema,
      collection: channelCollectionSchema,
      create: channelCreateSchema,
      update: channelUpdateSchema,
    },
    examples: {
      item: notificationChannelExample,
      created: notificationChannelCreatedExample,
      collection: collectionExample('notification_channels', notificationChannelExample),
      create: notificationChannelCreateExample,
      update: notificationChannelUpdateExample,
    },
    notes: {
      list: `${adminOnly} Filters on \`id\`, \`name\`, \`type\`, \`enabled\` and \`min_level\`.`,
      create: `${adminOnly} ${types} A webhook's \`secret\` (\`whsec_…\`) is in this answer only.`,
      show: `${adminOnly} By id or name.`,
      update: `${adminOnly} \`settings\` sent are merged into the stored ones (a write-only field left out is kept; \`null\` removes it); \`type\` cannot change. Disabling a channel drops what it still had queued.`,
      destroy: `${adminOnly} Its deliveries go with it.`,
    },
    service: (core) => core.notificationChannels,
    operations: {
      list: { operationId: 'listNotificationChannels', sdkSample: `const { count, notification_channels } = await dms.notificationChannels.list();` },
      create: {
        operationId: 'createNotificationChannel',
        sdkSample: `const channel = await dms.notificationChannels.create({
  name: 'ops-webhook',
  type: 'webhook',
  min_level: 3,
  settings: { url: 'https://hooks.example.com/dms' },
});
console.log(channel.secret); // whsec_…, shown this once`,
      },
      show: { operationId: 'showNotificationChannel', sdkSample: `const channel = await dms.notificationChannels.get('ops-webhook');` },
      update: {
        operationId: 'updateNotificationChannel',
        sdkSample: `const channel = await dms.notificationChannels.update('ops-webhook', { min_level: 4 });`,
      },
      destroy: { operationId: 'deleteNotificationChannel', sdkSample: `await dms.notificationChannels.delete('ops-webhook');` },
    },
  }),
  defineOperation({
    operationId: 'testNotificationChannel',
    sdkSample: `const { outcome, status_code, error } = await dms.notificationChannels.test('ops-webhook');`,
    handle: async (c, core) => respondJson(c, await core.notificationChannels.test(c.get('principal'), c.req.param('notification_channel_id')!)),
    method: 'post',
    path: '/notification_channels/:notification_channel_id/test',
    tag: 'notifications',
    summary: 'Send a test message on this channel now',
    description: `${adminOnly} Sends one message of type \`test\` now (not queued; within 10 s), whatever the channel's level, sources and \`enabled\`, and answers how it went: \`outcome\` \`delivered\` or \`failed\`, the receiver's \`status_code\` (HTTP channels) and \`error\`.`,
    scope: { controller: 'notification_channels', action: 'test' },
    success: { status: 200, description: 'what the test send ended in', schema: channelTestResultSchema, example: notificationTestExample },
  }),
  defineOperation({
    operationId: 'listNotificationDeliveries',
    sdkSample: `const { deliveries } = await dms.notificationChannels.deliveries('ops-webhook');`,
    handle: async (c, core) =>
      respondJson(c, await core.notificationChannels.deliveries(c.get('principal'), c.req.param('notification_channel_id')!, rawQuery(c))),
    method: 'get',
    path: '/notification_channels/:notification_channel_id/deliveries',
    tag: 'notifications',
    summary: "List a channel's deliveries",
    description: `${adminOnly} One row per event sent (or to be sent) on the channel, newest first: \`at\` (the latest attempt), \`attempts\`, \`outcome\` (\`pending\`, \`retrying\`, \`delivered\`, \`failed\` after 24 hours of retries, \`dropped\` when the channel was disabled), \`status_code\`, \`error\` and \`next_attempt_at\`. Filters on \`id\`, \`event_type\`, \`outcome\`, \`at\` and \`created_at\`.`,
    scope: { controller: 'notification_channels', action: 'show' },
    query: listQueryParameters(deliveryListSpec),
    success: {
      status: 200,
      description: 'deliveries',
      schema: deliveryCollectionSchema,
      example: collectionExample('deliveries', notificationDeliveryExample),
    },
  }),
];
