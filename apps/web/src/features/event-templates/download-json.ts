/**
 * Saves a list as a pretty-printed JSON file (client-behaviour §9: the management tables' export
 * icons write the files the Import dialogs read back).
 */
export function downloadJson(fileName: string, data: unknown, indent: number | string = 2): void {
  const blob = new Blob([JSON.stringify(data, null, indent)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Let the click start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
