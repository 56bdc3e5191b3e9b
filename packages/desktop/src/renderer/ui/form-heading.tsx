import { useEffect, useRef } from 'react';

/**
 * A form's heading that takes the focus when the form opens for editing, so keyboard and
 * screen-reader users land on the form the Edit button opened, not back at the top.
 */
export function FormHeading({ id, children, focusOnMount }: { id: string; children: string; focusOnMount: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) heading.current?.focus();
  }, [focusOnMount]);
  return (
    <h2 id={id} ref={heading} tabIndex={-1} className="form-heading">
      {children}
    </h2>
  );
}
