/**
 * A modal <dialog> with its title: focus kept inside, Escape cancels (`onCancel`). The designer's dialogs, the
 * template import and History's questions use it.
 */
import { useEffect, useRef, type ReactNode } from 'react';

export function Modal({
  title,
  titleId,
  onCancel,
  children,
}: {
  title: string;
  titleId: string;
  onCancel(): void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
