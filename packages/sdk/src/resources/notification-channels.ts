import type { Call } from '../call.js';
import type {
  CallOptions,
  FilterFieldOf,
  NotificationChannel,
  NotificationChannelCollection,
  NotificationChannelCreate,
  NotificationChannelCreated,
  NotificationChannelTest,
  NotificationChannelUpdate,
  NotificationDelivery,
  NotificationDeliveryCollection,
  Ref,
  SortFieldOf,
} from '../types.js';
import { crud, listQuery, pages, type CrudResource, type ListOptions } from './crud.js';

/** A channel's deliveries filter and sort on these. */
export type NotificationDeliveryListOptions = ListOptions<FilterFieldOf<'listNotificationDeliveries'>, SortFieldOf<'listNotificationDeliveries'>>;

/** Where alerts and job outcomes are sent (webhook, e-mail, ntfy, Slack, Discord, Teams); administrators only. */
export type NotificationChannelsResource = CrudResource<{
  item: NotificationChannel;
  created: NotificationChannelCreated;
  collection: NotificationChannelCollection;
  create: NotificationChannelCreate;
  update: NotificationChannelUpdate;
  filter: FilterFieldOf<'listNotificationChannels'>;
  sort: SortFieldOf<'listNotificationChannels'>;
}> & {
  /** Sends a test message on the channel now and answers how it went. */
  test(ref: Ref, options?: CallOptions): Promise<NotificationChannelTest>;
  /** One page of the channel's deliveries, newest first unless `sortBy` says otherwise. */
  deliveries(ref: Ref, options?: NotificationDeliveryListOptions): Promise<NotificationDeliveryCollection>;
  /** Every delivery of the channel, page after page. */
  allDeliveries(ref: Ref, options?: NotificationDeliveryListOptions): AsyncIterableIterator<NotificationDelivery>;
};

export function notificationChannelsResource(call: Call): NotificationChannelsResource {
  const at = (ref: Ref) => ({ notification_channel_id: String(ref) });
  const deliveries = (ref: Ref, options: ListOptions<string, string> = {}) =>
    call('GET', '/notification_channels/{notification_channel_id}/deliveries', {
      path: at(ref),
      query: listQuery(options),
      signal: options.signal,
    }) as Promise<NotificationDeliveryCollection>;
  return {
    ...crud(call, '/notification_channels', 'notification_channel_id', 'notification_channels'),
    test: (ref, options = {}) =>
      call('POST', '/notification_channels/{notification_channel_id}/test', { path: at(ref), signal: options.signal }) as Promise<NotificationChannelTest>,
    deliveries,
    allDeliveries: (ref, options = {}) => pages<NotificationDelivery>((page) => deliveries(ref, page), 'deliveries', options),
  };
}
