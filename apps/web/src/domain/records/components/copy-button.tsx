import { useState } from 'react';

/** Writes text to the clipboard; falls back to a hidden text area where the Clipboard API is missing. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

/**
 * The clipboard icon (docs/screens.md#clipboard-summaries): tooltip "Copy to clipboard", copies silently. The
 * icon turns into a check for a moment so keyboard users know it worked.
 */
export function CopyButton({ text, label = 'Copy to clipboard' }: { text: () => string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="btn btn-link p-0 ms-2 lh-1 text-primary"
      title="Copy to clipboard"
      aria-label={label}
      onClick={() => {
        copyText(text()).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          },
          (err: unknown) => console.warn('Copy to clipboard failed:', err),
        );
      }}
    >
      <i className={`bi ${copied ? 'bi-clipboard-check-fill' : 'bi-clipboard-fill'}`} aria-hidden="true" />
    </button>
  );
}
