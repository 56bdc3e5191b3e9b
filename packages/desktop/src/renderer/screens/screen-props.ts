/** What every screen gets: who is signed in (some screens are for admins only). */
export interface ScreenProps {
  user: { username: string; admin: boolean };
}
