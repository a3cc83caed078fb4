import { useId, useState } from 'react';
import { Button, Form } from 'react-bootstrap';

export interface AttachPicturesProps {
  /** The pictures chosen so far (the parent sends them with its Submit). */
  files: readonly File[];
  onChange: (files: File[]) => void;
  /** Why the choice cannot be sent (wrong type, too many), or null. */
  error: string | null;
}

/**
 * "Attach pictures" (Sealog 2.4 event attachments): a file picker for PNG and JPEG pictures (a
 * photo from a phone, a screen grab) and the list of those chosen, each removable before Submit.
 */
export function AttachPictures({ files, onChange, error }: AttachPicturesProps) {
  const id = useId();
  const [inputKey, setInputKey] = useState(0);
  return (
    <Form.Group className="mb-2" controlId={`attach-${id}`}>
      <Form.Label className="small mb-1">Attach pictures</Form.Label>
      <Form.Control
        key={inputKey}
        type="file"
        size="sm"
        accept="image/png,image/jpeg"
        multiple
        isInvalid={!!error}
        aria-describedby={error ? `attach-${id}-feedback` : undefined}
        onChange={(e) => {
          const chosen = Array.from((e.target as HTMLInputElement).files ?? []);
          onChange([...files, ...chosen]);
          setInputKey((k) => k + 1);
        }}
      />
      <Form.Control.Feedback type="invalid" id={`attach-${id}-feedback`}>
        {error}
      </Form.Control.Feedback>
      {files.length > 0 && (
        <ul className="list-unstyled small mb-0 mt-1" aria-label="Pictures to attach">
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`} className="d-flex align-items-center gap-2">
              <i className="bi bi-image" aria-hidden="true" />
              <span className="text-truncate">{f.name}</span>
              <Button
                variant="link"
                size="sm"
                className="p-0 ms-auto"
                aria-label={`Remove ${f.name}`}
                onClick={() => onChange(files.filter((_, j) => j !== i))}
              >
                <i className="bi bi-x-lg" aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Form.Group>
  );
}
