// Screen width in CSS pixels → screen size class (Plausible's breakpoints).
export type ScreenClass = 'mobile' | 'tablet' | 'laptop' | 'desktop';

export function screenClass(width: number | null | undefined): ScreenClass | null {
  if (width === null || width === undefined || !Number.isFinite(width) || width <= 0) return null;
  if (width < 576) return 'mobile';
  if (width < 992) return 'tablet';
  if (width < 1440) return 'laptop';
  return 'desktop';
}
