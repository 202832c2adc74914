import { useLayoutEffect, useState } from 'react';
import { usePickerPopup } from '../components/usePickerPopup';
import { seColor } from './colors';
import { filterSeDefs, seOptionLabel } from './sevLabels';

/** An SE as the picker lists it. */
export interface SeChoice {
  index: number;
  name: string;
}

/**
 * An SE chosen by name: the button shows the SE ("SE_FOOT_L 0"); it opens the SEs as a list with a filter box that
 * keeps those whose name (or index) holds the text typed, in any case. Keys: a letter typed on the button opens the
 * list with it in the filter, ↑/↓ move, Enter picks, Escape closes (the choice stays as it was). A drop-down of
 * hundreds of SE names had to be scrolled, and found a name by its first letters only (tried cold, round 9).
 * `onPick` is called once per choice that changes the SE, so an event's SE changed here is one undo step.
 */
export function SePicker(props: {
  defs: readonly SeChoice[];
  value: number;
  onPick: (se: number) => void;
  label: string;
  testId: string;
  title?: string;
  disabled?: boolean;
  className?: string;
}) {
  const { defs, value } = props;
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const { open, button, pop, list, place, show, close } = usePickerPopup(active);
  const shown = filterSeDefs(defs, filter);
  const current = defs.find((d) => d.index === value);
  const valueLabel = current ? seOptionLabel(current) : `SE ${value}`;

  const openPicker = (typed = '') => {
    if (props.disabled || !defs.length) return;
    setFilter(typed);
    show();
  };
  const pick = (se: number, fromKeyboard: boolean) => {
    close(fromKeyboard);
    if (se !== value) props.onPick(se);
    // A click hands the keyboard back to the app (Space plays, M adds the event), as the joint picker does; Enter
    // leaves it on the button, where it was before the list opened.
    if (!fromKeyboard) button.current?.blur();
  };

  // Opening shows the chosen SE; filtering makes the first match the active row.
  useLayoutEffect(() => {
    if (!open) return;
    const chosen = shown.findIndex((d) => d.index === value);
    setActive(filter.trim() ? 0 : Math.max(0, chosen));
  }, [open, filter]);

  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') close(true);
    else if (e.key === 'Enter') {
      const d = shown[active];
      if (d) pick(d.index, true);
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown')
      setActive(Math.max(0, Math.min(shown.length - 1, active + (e.key === 'ArrowDown' ? 1 : -1))));
    else if (e.key === 'PageUp' || e.key === 'PageDown')
      setActive(Math.max(0, Math.min(shown.length - 1, active + (e.key === 'PageDown' ? 10 : -10))));
    else if (e.key === 'Tab') {
      close(false);
      return;
    } else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <span className={`se-picker ${props.className ?? ''}`}>
      <button
        ref={button}
        type="button"
        className="joint-picker-button se-picker-button"
        aria-label={props.label}
        aria-haspopup="listbox"
        aria-expanded={open}
        data-testid={props.testId}
        data-value={value}
        disabled={props.disabled || !defs.length}
        title={props.title ?? `${props.label}: ${valueLabel} (click, or type part of a name, to choose)`}
        onClick={() => (open ? close(false) : openPicker())}
        onKeyDown={(e) => {
          if (open || e.ctrlKey || e.metaKey || e.altKey) return;
          if (e.key === 'ArrowDown' || e.key === 'Enter' || e.key === ' ') openPicker();
          // A letter or digit typed on the button starts the filter with it (a select found names that way too).
          else if (e.key.length === 1 && /\S/.test(e.key)) openPicker(e.key);
          else return;
          e.preventDefault();
          e.stopPropagation();
        }}
      >
        <span className="joint-picker-value">{valueLabel}</span>
        <span className="joint-picker-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      {open && (
        <div
          ref={pop}
          className="joint-picker-pop se-picker-pop"
          data-testid={`${props.testId}-list`}
          onKeyDown={onKey}
          style={{ left: place.left, top: place.top, bottom: place.bottom, maxHeight: place.maxHeight }}
        >
          <input
            type="search"
            autoFocus
            className="joint-picker-filter"
            placeholder={`Filter ${defs.length} SEs by name`}
            aria-label="Filter the SEs by name"
            data-testid={`${props.testId}-filter`}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          {/* A click in the list leaves the keyboard in the filter box until the choice is made. */}
          <ul
            ref={list}
            role="listbox"
            aria-label={props.label}
            className="joint-picker-tree"
            onMouseDown={(e) => e.preventDefault()}
          >
            {shown.map((d, k) => (
              <li
                key={d.index}
                role="option"
                aria-selected={d.index === value}
                data-item={k}
                data-se={d.index}
                data-testid="se-picker-item"
                className={`${k === active ? 'active' : ''}${d.index === value ? ' chosen' : ''}`}
                onPointerEnter={() => setActive(k)}
                onClick={() => pick(d.index, false)}
              >
                <span className="sev-swatch" style={{ background: seColor(d.index) }} />
                <span className="joint-tree-name">{seOptionLabel(d)}</span>
              </li>
            ))}
            {shown.length === 0 && (
              <li className="dim" role="none" data-testid="se-picker-none">
                No SE name holds “{filter.trim()}”.
              </li>
            )}
          </ul>
        </div>
      )}
    </span>
  );
}
