/** The embedded REST server's line in the overview's facts (filled in with the REST server settings). */
export function RestServerStatus() {
  return null;
}
