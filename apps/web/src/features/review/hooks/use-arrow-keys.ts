import { useEffect, useRef } from 'react';

export interface ArrowHandlers {
  left?: () => void;
  right?: () => void;
  up?: () => void;
  down?: () => void;
}

/** Where arrow keys belong to the control, not the screen. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return true;
  return target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
}

/**
 * Arrow keys on a review screen (docs/screens.md#arrow-keys), ignored while focus is in an
 * input, select or textarea, with a modifier held, or while a modal is open.
 */
export function useArrowKeys(handlers: ArrowHandlers): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey || isTyping(e.target)) return;
      if (document.body.classList.contains('modal-open')) return;
      const handler = {
        ArrowLeft: ref.current.left,
        ArrowRight: ref.current.right,
        ArrowUp: ref.current.up,
        ArrowDown: ref.current.down,
      }[e.key];
      if (!handler) return;
      e.preventDefault();
      handler();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
