import type { SessionCredential } from '@dms/core/runtime';

/**
 * The signed-in desktop user, held in the main process only: the renderer never sees a
 * password or a token. What is kept is the core's session credential, not a principal: every
 * procedure presents it to the core, which re-reads the user (a demotion applies at once; a
 * deleted or re-passworded user ends the session).
 */
export class DesktopSession {
  #credential: SessionCredential | undefined;

  get credential(): SessionCredential | undefined {
    return this.#credential;
  }

  signIn(credential: SessionCredential): void {
    this.#credential = credential;
  }

  signOut(): void {
    this.#credential = undefined;
  }
}
