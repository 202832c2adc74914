import { useDocument, usePreferences, useSession } from '../state/hooks';
import { preferencesStore, PLAYBACK_SPEEDS } from '../state/preferencesStore';
import { gotoFrame, step, togglePlay } from '../app/playhead';
import { Icon } from './Icons';
import { useRef, useState } from 'react';
import { sessionStore } from '../state/sessionStore';
import { parseTypedWholeNumber, quotedTyped, typedNumberAttributes } from '../tuner/typedNumber';

/** Play/pause, step, loop, speed and the frame field under the viewport. */
export function PlaybackBar() {
  const frameCount = useDocument((d) => d.motion?.frameCount ?? 0);
  const fps = useDocument((d) => d.motion?.fps ?? 30);
  const hasMotion = useDocument((d) => !!d.motion);
  const playing = useSession((s) => s.playing);
  const frame = useSession((s) => Math.round(s.playhead));
  const loop = usePreferences((p) => p.loop);
  const speed = usePreferences((p) => p.playbackSpeed);
  return (
    <div className="playback-bar" role="toolbar" aria-label="Playback">
      {/* Two groups that each keep to one line: in a narrow viewport (side by side at 1280x800) the frame, loop, speed
          and fps go under the buttons and scrub bar together, rather than "30 fps" or "/ 132" wrapping alone. */}
      <div className="playback-transport">
        <button
          type="button"
          className="tool"
          title="First frame (Home)"
          aria-label="First frame"
          disabled={!hasMotion}
          onClick={() => gotoFrame(0)}
        >
          <Icon name="first" />
        </button>
        <button
          type="button"
          className="tool"
          title="Step back (←; Shift+←: 10 frames)"
          aria-label="Step back"
          disabled={!hasMotion}
          onClick={() => step(-1)}
          data-testid="step-back"
        >
          <Icon name="stepBack" />
        </button>
        <button
          type="button"
          className="tool play"
          title="Play / pause (Space)"
          aria-label={playing ? 'Pause' : 'Play'}
          disabled={!hasMotion}
          onClick={togglePlay}
          data-testid="play-toggle"
          aria-pressed={playing}
        >
          {playing ? <Icon name="pause" /> : <Icon name="play" />}
        </button>
        <button
          type="button"
          className="tool"
          title="Step forward (→; Shift+→: 10 frames)"
          aria-label="Step forward"
          disabled={!hasMotion}
          onClick={() => step(1)}
          data-testid="step-forward"
        >
          <Icon name="stepForward" />
        </button>
        <button
          type="button"
          className="tool"
          title="Last frame (End)"
          aria-label="Last frame"
          disabled={!hasMotion}
          onClick={() => gotoFrame(frameCount)}
        >
          <Icon name="last" />
        </button>
        <input
          className="frame-field"
          type="range"
          min={0}
          max={frameCount}
          step={1}
          value={frame}
          disabled={!hasMotion}
          aria-label="Scrub"
          data-testid="scrub"
          onChange={(e) => gotoFrame(Number(e.target.value))}
        />
      </div>
      <div className="playback-status" data-testid="playback-status">
        <FrameField frame={frame} frameCount={frameCount} disabled={!hasMotion} />
        <span className="dim">/ {frameCount}</span>
        <label className="check" title="Loop playback">
          <input
            type="checkbox"
            checked={loop}
            onChange={(e) => preferencesStore.getState().set({ loop: e.target.checked })}
            data-testid="loop"
          />{' '}
          Loop
        </label>
        <label className="dim" title="Playback speed ([ slower, ] faster)" data-testid="speed-label">
          Speed{' '}
          <select
            value={speed}
            onChange={(e) => {
              preferencesStore.getState().set({ playbackSpeed: Number(e.target.value) });
              e.currentTarget.blur();
            }}
            data-testid="speed"
            aria-label="Playback speed"
          >
            {PLAYBACK_SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <span className="dim" data-testid="playback-fps">
          {fps} fps
        </span>
      </div>
    </div>
  );
}

/** Why a typed frame was not gone to (the playhead stays). */
export function frameProblem(text: string, frameCount: number, frame: number): string {
  return `Frame must be a whole number from 0 to ${frameCount}; ${quotedTyped(text)} was not applied, the playhead stays at ${frame}.`;
}

/**
 * The frame field: a text field, not a number field, which read "1,5" (a decimal comma) as frame 15 without a word
 * (typedNumber.ts). A whole number goes to its frame as it is typed; anything else is named in the message bar on
 * Enter or leaving the field, and the field shows the playhead again. ↑ / ↓ step a frame as the number field did.
 */
function FrameField(props: { frame: number; frameCount: number; disabled: boolean }) {
  // The text being typed; null: the field shows the playhead.
  const [text, setText] = useState<string | null>(null);
  const reverting = useRef(false);
  const commit = () => {
    if (reverting.current) {
      reverting.current = false;
      return;
    }
    if (text === null) return;
    const v = parseTypedWholeNumber(text);
    if (!(Number.isFinite(v) && v >= 0))
      sessionStore.getState().notify('warning', frameProblem(text, props.frameCount, props.frame));
    else gotoFrame(v);
    setText(null);
  };
  return (
    <input
      className="num frame-number"
      {...typedNumberAttributes('numeric')}
      value={text ?? String(props.frame)}
      disabled={props.disabled}
      aria-label="Frame"
      data-testid="frame-number"
      onChange={(e) => {
        setText(e.target.value);
        const v = parseTypedWholeNumber(e.target.value);
        if (Number.isFinite(v) && v >= 0) gotoFrame(v);
      }}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
          e.preventDefault();
          setText(null);
          gotoFrame(props.frame + (e.key === 'ArrowUp' ? 1 : -1));
        }
        // Enter / Escape hand the keyboard back to the shortcuts (K, L, T, arrows); Escape leaves what was typed.
        if (e.key === 'Escape') {
          reverting.current = true;
          setText(null);
        }
        if (e.key === 'Enter' || e.key === 'Escape') e.currentTarget.blur();
      }}
    />
  );
}
