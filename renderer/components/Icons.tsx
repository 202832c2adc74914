/** Small transport and panel icons as inline SVG (no icon font to load, crisp at any DPR). */
const paths: Record<string, string> = {
  first: 'M3 2h2v12H3zM14 2v12L6 8z',
  last: 'M11 2h2v12h-2zM2 2v12l8-6z',
  stepBack: 'M3 2h2v12H3zM13 3v10L7 8z',
  stepForward: 'M11 2h2v12h-2zM3 3v10l6-5z',
  play: 'M4 2v12l10-6z',
  pause: 'M3 2h4v12H3zM9 2h4v12H9z',
  // Panel controls: collapse (a bar), restore (a box), maximize (corners out).
  collapse: 'M3 10h10v2H3z',
  restore: 'M3 3h10v10H3zM5 5v6h6V5z',
  maximize: 'M2 2h5v2H4v3H2zM9 2h5v5h-2V4H9zM2 9h2v3h3v2H2zM12 9h2v5H9v-2h3z',
};

export function Icon({ name }: { name: keyof typeof paths }) {
  return (
    <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={paths[name]} fill="currentColor" />
    </svg>
  );
}
