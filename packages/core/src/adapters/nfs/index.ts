export { createNfsDriver } from './nfs-driver.js';
export type { NfsScanOptions } from './nfs-scan.js';
