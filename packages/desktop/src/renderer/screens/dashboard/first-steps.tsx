import type { ShareHealth } from '@dms/core';

interface FirstStepsProps {
  nas: number;
  shares: number;
  health: Record<ShareHealth, number>;
}

/**
 * A new instance's path, while it is not walked yet: add a NAS, then a share on it, then test
 * the share. Each step links where it is done and shows once it is; the list goes away once a
 * share has been tested.
 */
export function FirstSteps({ nas, shares, health }: FirstStepsProps) {
  const tested = health.ok + health.unreachable > 0;
  if (nas > 0 && shares > 0 && tested) return null;
  const steps = [
    { done: nas > 0, href: '#/nas', text: 'Add your first NAS', hint: 'where the shares live: a file server, or a folder of this computer' },
    { done: shares > 0, href: '#/shares', text: 'Add a share', hint: 'a path on that NAS, with the account that reads it' },
    { done: tested, href: '#/shares', text: 'Test it', hint: 'Test on the share’s row checks that dms can reach and read it' },
  ];
  const next = steps.findIndex((step) => !step.done);
  return (
    <section className="first-steps" aria-labelledby="first-steps-heading">
      <h2 id="first-steps-heading">First steps</h2>
      <ol>
        {steps.map((step, index) => (
          <li key={step.text} data-done={step.done ? 'true' : undefined}>
            {index === next ? (
              <a href={step.href} aria-current="step">
                {step.text}
              </a>
            ) : (
              <span>{step.text}</span>
            )}
            {step.done ? <span className="hint"> (done)</span> : <span className="hint"> – {step.hint}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
