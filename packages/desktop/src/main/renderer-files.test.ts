import { describe, expect, it } from 'vitest';
import { rendererFile } from './renderer-files.js';

const dir = '/opt/dms/renderer';

describe('renderer files', () => {
  it('serves the bundle under app://console', () => {
    expect(rendererFile(dir, 'app://console/')).toEqual({ path: '/opt/dms/renderer/index.html', contentType: 'text/html; charset=utf-8' });
    expect(rendererFile(dir, 'app://console/assets/index-1.js')?.path).toBe('/opt/dms/renderer/assets/index-1.js');
  });

  it('serves nothing outside the bundle, from another host, or of an unknown type', () => {
    expect(rendererFile(dir, 'app://console/../../../etc/passwd')).toBeUndefined();
    expect(rendererFile(dir, 'app://console/%2e%2e/%2e%2e/etc/passwd')).toBeUndefined();
    expect(rendererFile(dir, 'app://console/..%2F..%2Fsecret.key')).toBeUndefined();
    expect(rendererFile(dir, 'app://other/index.html')).toBeUndefined();
    expect(rendererFile(dir, 'app://console/data/dms.sqlite')).toBeUndefined();
  });
});
