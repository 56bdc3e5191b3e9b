import type { Principal } from '@dms/core';

/**
 * The signed-in desktop user, held in the main process only: the renderer never sees a
 * password or a token, it asks the main process, which calls the core as this principal.
 */
export class DesktopSession {
  #principal: Principal | undefined;

  get principal(): Principal | undefined {
    return this.#principal;
  }

  signIn(principal: Principal): void {
    this.#principal = principal;
  }

  signOut(): void {
    this.#principal = undefined;
  }
}
