/**
 * Hands an exported file to the user: a Blob behind an `<a download>` (in Electron the shell turns the
 * download into a save dialog).
 */
import type { ExportedFile } from '../../../src/ipc/contract';

export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function downloadFile(file: ExportedFile, doc: Document = document): void {
  const url = URL.createObjectURL(new Blob([base64ToBytes(file.base64)], { type: file.mime }));
  const a = doc.createElement('a');
  a.href = url;
  a.download = file.fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  doc.body.append(a);
  a.click();
  a.remove();
  // Revoked later: the download reads the Blob after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
