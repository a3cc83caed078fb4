import { afterEach, describe, expect, it } from 'vitest';
import { useRef, useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';

afterEach(cleanup);

/** A box that appears on a click, as a modal's comment box does, and a counter that re-renders it. */
function LateBox() {
  const [open, setOpen] = useState(false);
  const [count, setCount] = useState(0);
  const ref = useRef<HTMLTextAreaElement>(null);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <button onClick={() => setCount((n) => n + 1)}>Count {count}</button>
      <button onClick={() => ref.current?.select()}>Select</button>
      {open && <textarea aria-label="Comment" ref={ref} defaultValue="seen" autoFocus />}
    </>
  );
}

// The client runs on Preact's compat layer (apps/web/client-runtime.ts): autoFocus must behave as
// on React DOM, where these tests pass as well.
describe('autoFocus', () => {
  it('focuses an element added after the page loaded, once, and writes no attribute', () => {
    render(<LateBox />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const box = screen.getByRole('textbox', { name: 'Comment' });
    expect(document.activeElement).toBe(box);
    expect(box.hasAttribute('autofocus')).toBe(false);

    // A later render does not take the focus back.
    const count = screen.getByRole('button', { name: 'Count 0' });
    count.focus();
    fireEvent.click(count);
    expect(screen.getByRole('button', { name: 'Count 1' })).toBe(document.activeElement);
  });

  it('still hands the element to its ref', () => {
    render(<LateBox />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.click(screen.getByRole('button', { name: 'Select' }));
    const box = screen.getByRole('textbox', { name: 'Comment' }) as HTMLTextAreaElement;
    expect([box.selectionStart, box.selectionEnd]).toEqual([0, 4]);
  });
});
