export { createNfsDriver, nfsScanUnsupported } from './nfs-driver.js';
