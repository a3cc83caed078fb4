import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Pagination, pageItems, pageSlice } from './pagination';

afterEach(cleanup);

describe('pageItems', () => {
  it('shows first, last and the current page ± 2', () => {
    expect(pageItems(1, 10)).toEqual([1, 2, 3, 'gap', 10]);
    expect(pageItems(6, 12)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 12]);
    expect(pageItems(10, 10)).toEqual([1, 'gap', 8, 9, 10]);
  });
  it('shows a gap of exactly one page as its number', () => {
    expect(pageItems(4, 10)).toEqual([1, 2, 3, 4, 5, 6, 'gap', 10]);
    expect(pageItems(5, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 'gap', 10]);
  });
  it('handles few pages', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 3)).toEqual([1, 2, 3]);
  });
});

describe('Pagination', () => {
  it('is hidden when everything fits on one page', () => {
    const { container } = render(<Pagination page={1} total={6} pageSize={6} onChange={() => {}} />);
    expect(container.innerHTML).toBe('');
  });

  it('moves to the clicked, first, last, previous and next page', () => {
    const onChange = vi.fn();
    render(<Pagination page={3} total={95} pageSize={10} onChange={onChange} />);
    fireEvent.click(screen.getByText('5'));
    fireEvent.click(screen.getByLabelText('First page'));
    fireEvent.click(screen.getByLabelText('Last page'));
    fireEvent.click(screen.getByLabelText('Previous page'));
    fireEvent.click(screen.getByLabelText('Next page'));
    expect(onChange.mock.calls.map((c) => c[0])).toEqual([5, 1, 10, 2, 4]);
  });
});

describe('pageSlice', () => {
  it('returns one page of a list', () => {
    expect(pageSlice([1, 2, 3, 4, 5, 6, 7], 2, 3)).toEqual([4, 5, 6]);
    expect(pageSlice([1, 2, 3], 2, 3)).toEqual([]);
  });
});
