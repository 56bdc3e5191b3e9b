/**
 * What a non-admin sees on an admin-only screen: the core refused the list, so there is no
 * table to show, only what it takes and the core's own words.
 */
export function AdminOnly({ what, refusal }: { what: string; refusal: string }) {
  return (
    <div className="empty admin-only" role="status">
      <p className="empty-title">Only an admin can {what}</p>
      <p>
        Ask an admin to do it, or sign in as one. <span className="hint">({refusal})</span>
      </p>
    </div>
  );
}
