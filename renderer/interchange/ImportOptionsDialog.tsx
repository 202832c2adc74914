import { useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { BvhPositionReading } from '../../shared/interchange/types';
import { importOptionsStore, parseImportOptions } from './importOptions';
import './interchange.css';

/** File > Import: frame rate and scale of the new motion, then "Choose file…". */
export function ImportOptionsDialog() {
  const req = useStore(importOptionsStore, (s) => s.request);
  const [fps, setFps] = useState('30');
  const [scale, setScale] = useState('1');
  const [bvhPositions, setBvhPositions] = useState<BvhPositionReading>('auto');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!req) return;
    setFps(String(req.initial.fps));
    setScale(String(req.initial.scale));
    setBvhPositions(req.initial.bvhPositions ?? 'auto');
    setTimeout(() => first.current?.select(), 0);
  }, [req]);
  if (!req) return null;
  const parsed = parseImportOptions(fps, scale);
  const accept = () => {
    if (!('error' in parsed)) req.resolve({ ...parsed, bvhPositions });
  };
  return (
    <div className="modal-backdrop" onKeyDown={(e) => e.key === 'Escape' && req.resolve(null)}>
      <div
        className="modal import-options"
        role="dialog"
        aria-modal="true"
        aria-label="Import motion"
        data-testid="import-options"
      >
        <h2>Import motion (BVH, glTF, FBX)</h2>
        <p>
          The file becomes a new, unsaved motion. Joints keep their names (BVH, glTF: cut to 31 bytes; FBX: refused if
          longer); a file with several clips asks which one. Choose several files to write one .mtn each beside them
          (added to the open project, all or nothing).
        </p>
        <form
          className="import-fields"
          onSubmit={(e) => {
            e.preventDefault();
            accept();
          }}
        >
          <label>
            <span>Frame rate</span>
            <input
              ref={first}
              value={fps}
              onChange={(e) => setFps(e.target.value)}
              inputMode="decimal"
              aria-label="Frame rate"
              data-testid="import-fps"
            />
            <span className="dim">fps (MGS2 plays at 30; the source is resampled)</span>
          </label>
          <label>
            <span>Scale</span>
            <input
              value={scale}
              onChange={(e) => setScale(e.target.value)}
              inputMode="decimal"
              aria-label="Scale"
              data-testid="import-scale"
            />
            <span className="dim">× every position (CMU BVH → cm: 5.644444)</span>
          </label>
          <label>
            <span>BVH positions</span>
            <select
              value={bvhPositions}
              onChange={(e) => setBvhPositions(e.target.value as BvhPositionReading)}
              aria-label="BVH positions"
              data-testid="import-bvh-positions"
            >
              <option value="auto">auto</option>
              <option value="added">added</option>
              <option value="local">local</option>
            </select>
            <span className="dim">
              auto judges each joint; added: to its OFFSET (BVH description); local: its whole position (Blender,
              LAFAN1). Change it when the import&apos;s warning says so.
            </span>
          </label>
          {'error' in parsed && (
            <div className="bad small" data-testid="import-options-error">
              {parsed.error}
            </div>
          )}
          <div className="modal-buttons">
            <button type="submit" className="primary" disabled={'error' in parsed} data-testid="import-choose-file">
              Choose file…
            </button>
            <button type="button" data-testid="import-cancel" onClick={() => req.resolve(null)}>
              Cancel
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
