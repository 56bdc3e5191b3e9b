import { TwoFactorSection } from './two-factor-section.js';
import { SessionsSection } from './sessions-section.js';

/** The signed-in user's own account: its second factor and where it is signed in. */
export function AccountScreen() {
  return (
    <>
      <TwoFactorSection />
      <SessionsSection />
    </>
  );
}
