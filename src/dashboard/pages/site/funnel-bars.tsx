// A funnel's steps as bars: visitors reaching each step, conversion from the start, drop-off and the median time
// from the previous step.
import type { FunnelAnalysis } from '../../api/types.ts';
import { fmtDuration, fmtNumber, fmtPercent } from '../../components/format.ts';

export function FunnelBars({ analysis }: { analysis: FunnelAnalysis }) {
  const first = Math.max(1, analysis.steps[0]?.visitors ?? 1);
  return (
    <div class="funnel">
      <p class="funnel-summary"><strong>{fmtPercent(analysis.conversion_rate)}</strong> <span class="muted">converted from the first to the last step</span></p>
      <ol class="funnel-steps">
        {analysis.steps.map((s, i) => (
          <li class="funnel-step">
            <div class="funnel-step-head">
              <span class="funnel-step-name"><span class="step-no">{i + 1}</span>{s.label}</span>
              <span><strong>{fmtNumber(s.visitors)}</strong> <span class="muted">visitors · {fmtPercent(s.conversion_rate)}</span></span>
            </div>
            <div class="funnel-track" aria-hidden="true"><span class="funnel-fill" style={{ width: `${(100 * s.visitors) / first}%` }} /></div>
            {i > 0 && (
              <div class="funnel-step-meta muted">
                {fmtPercent(s.step_conversion_rate)} from step {i} · {fmtNumber(s.dropoff)} dropped off
                {s.median_seconds_from_previous !== null && <> · median {fmtDuration(s.median_seconds_from_previous)} from step {i}</>}
              </div>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
