/**
 * Colours shared by the canvases and the viewport (CSS uses the same values
 * through custom properties in styles.css).
 */
export const COLORS = {
  viewportBg: '#1b1d21',
  panelBg: '#202226',
  canvasBg: '#1a1c20',
  gutterBg: '#24262b',
  rowAlt: '#1e2024',
  grid: '#2c2f35',
  gridMajor: '#3a3e46',
  gridLine: '#2a2d33',
  text: '#c9ccd3',
  textDim: '#7d828c',
  /** Source (MTN) skeleton and curves. */
  source: '#8fb8ff',
  /** Decoded (MT3) skeleton and curves. */
  decoded: '#ffa24a',
  /** The source skeleton drawn as a ghost behind the decoded one (desaturated, translucent). */
  ghost: '#a9b3c4',
  /** Onion-skin poses before and after the playhead. */
  onionBefore: '#6f8fd0',
  onionAfter: '#7fc08f',
  /** Joint error against its tolerance at the current frame: within half, near, over. */
  errorOk: '#4fd16b',
  errorNear: '#ffb020',
  errorOver: '#ff3b3b',
  trajectory: '#5fbf7f',
  trace: '#e070e0',
  lock: '#ff4f5e',
  selection: '#ffe14d',
  playhead: '#ff5a36',
  userKey: '#ffd23f',
  autoKey: '#9aa0aa',
  error: '#ff6b6b',
  tolerance: '#ff3b3b',
  axisX: '#ff6b6b',
  axisY: '#7bdc6b',
  axisZ: '#5aa9ff',
  axisW: '#d0d0d0',
} as const;
