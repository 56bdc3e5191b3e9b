import type { ScreenProps } from '../shell/screens.js';
import { RestServerSection } from './settings/rest-server-section.js';
import { AllowedHostsSection } from './settings/allowed-hosts-section.js';
import './settings/settings.css';

/** This instance's settings: the embedded REST server, and where share tests may connect (admin only). */
export function SettingsScreen({ user }: ScreenProps) {
  return (
    <>
      <RestServerSection admin={user.admin} />
      {user.admin ? (
        <AllowedHostsSection />
      ) : (
        <section aria-labelledby="allowed-hosts-heading">
          <h2 id="allowed-hosts-heading">Share-test allowed hosts</h2>
          <p className="hint">Only an admin can see and change where share tests and scans may connect.</p>
        </section>
      )}
    </>
  );
}
