/** Saves a blob under a file name through a temporary link (no library, binary-safe). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the browser time to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * Saves a list as a pretty-printed JSON file (docs/screens.md#list-exports: the management tables' export
 * icons write the files the Import dialogs read back).
 */
export function downloadJson(fileName: string, data: unknown, indent: number | string = 2): void {
  saveBlob(new Blob([JSON.stringify(data, null, indent)], { type: 'application/json' }), fileName);
}
