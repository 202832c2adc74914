import { useRef } from 'react';

/**
 * A drag handle between panels: dragging, or the arrow keys (Shift: bigger steps) when it has the focus, give
 * `onResize` the new size in px. `onReset` (double-click, or Enter) goes back to the default size; its `title`
 * says so.
 */
export function Splitter(props: {
  orientation: 'vertical' | 'horizontal';
  size: number;
  onResize: (size: number) => void;
  invert?: boolean;
  label: string;
  min: number;
  max: number;
  onReset?: () => void;
  title?: string;
  testid?: string;
}) {
  const start = useRef<{ pos: number; size: number } | null>(null);
  const vertical = props.orientation === 'vertical';
  return (
    <div
      className={vertical ? 'splitter vertical' : 'splitter horizontal'}
      role="separator"
      aria-orientation={vertical ? 'vertical' : 'horizontal'}
      aria-label={props.label}
      aria-valuenow={Math.round(props.size)}
      aria-valuemin={props.min}
      aria-valuemax={props.max}
      tabIndex={0}
      title={props.title}
      data-testid={props.testid}
      onDoubleClick={props.onReset}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        start.current = { pos: vertical ? e.clientX : e.clientY, size: props.size };
      }}
      onPointerMove={(e) => {
        if (!start.current) return;
        const delta = (vertical ? e.clientX : e.clientY) - start.current.pos;
        const next = start.current.size + (props.invert ? -delta : delta);
        props.onResize(Math.max(props.min, Math.min(props.max, next)));
      }}
      onPointerUp={() => (start.current = null)}
      onKeyDown={(e) => {
        const step = e.shiftKey ? 40 : 10;
        if (e.key === 'Enter' && props.onReset) {
          e.preventDefault();
          e.stopPropagation();
          props.onReset();
          return;
        }
        const dec = vertical ? 'ArrowLeft' : 'ArrowUp';
        const inc = vertical ? 'ArrowRight' : 'ArrowDown';
        if (e.key !== dec && e.key !== inc) return;
        e.preventDefault();
        e.stopPropagation();
        const dir = (e.key === inc ? 1 : -1) * (props.invert ? -1 : 1);
        props.onResize(Math.max(props.min, Math.min(props.max, props.size + dir * step)));
      }}
    />
  );
}
