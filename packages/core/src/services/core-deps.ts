import type { Storage } from '../ports/storage.js';
import type { EventBus } from '../ports/event-bus.js';
import type { SecretBox } from '../ports/secret-box.js';
import type { PasswordHasher } from '../ports/password-hasher.js';

/** What every service is built from; the clock and id generator are injected for tests. */
export interface CoreDeps {
  storage: Storage;
  secrets: SecretBox;
  hasher: PasswordHasher;
  events: EventBus;
  clock: () => Date;
  newId: () => string;
}
