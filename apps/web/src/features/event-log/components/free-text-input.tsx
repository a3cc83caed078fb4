import { useState, type FormEvent } from 'react';
import { Button, Form, InputGroup } from 'react-bootstrap';

/** "Type new event" with Submit (docs/screens.md#free-text): Enter submits; the field clears. */
export function FreeTextInput({ onSubmit }: { onSubmit: (text: string) => void }) {
  const [text, setText] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (!value) return;
    onSubmit(value);
    setText('');
  };
  return (
    <Form onSubmit={submit} className="mb-2" aria-label="New free-form event">
      <InputGroup>
        <Form.Control
          placeholder="Type new event"
          aria-label="Type new event"
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={10_000}
        />
        <Button type="submit" variant="primary" disabled={text.trim() === ''}>
          Submit
        </Button>
      </InputGroup>
    </Form>
  );
}
