// A tiny SVG line of a series (the sites list); decorative, its number is printed beside it.
export function Sparkline({ values, width = 120, height = 32 }: { values: number[]; width?: number; height?: number }) {
  if (values.length < 2) return <svg width={width} height={height} aria-hidden="true" />;
  const max = Math.max(1, ...values);
  const step = width / (values.length - 1);
  const pts = values.map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (v / max) * (height - 4)).toFixed(1)}`);
  return (
    <svg class="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true">
      <path d={`M0,${height} L${pts.join(' L')} L${width},${height} Z`} class="spark-area" />
      <path d={`M${pts.join(' L')}`} class="spark-line" fill="none" />
    </svg>
  );
}
