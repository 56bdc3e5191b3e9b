import { maxExtensionLength } from '../domain/scan-analytics.js';

/**
 * A file name's extension as the analytics count it: the lower-cased text after its last `.`,
 * when there is text before that dot (`.bashrc` has none) and the extension is 1 to 16 UTF-16
 * units long; '' otherwise. The length bound keeps hostile names from making long keys.
 */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return '';
  const length = name.length - dot - 1;
  if (length === 0 || length > maxExtensionLength) return '';
  return name.slice(dot + 1).toLowerCase();
}
