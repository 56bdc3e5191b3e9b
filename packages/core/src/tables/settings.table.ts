/** One setting per key; its value is JSON of whatever the setting holds (SettingsStore is generic over it). */
export interface SettingTable {
  key: string;
  value: string;
}
