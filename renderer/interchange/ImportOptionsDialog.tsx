import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { BvhPositionReading } from '../../shared/interchange/types';
import { importOptionsStore, parseImportOptions } from './importOptions';
import { ChooseFileModal, DecimalField } from './ChooseFileModal';
import './interchange.css';

/** File > Import: frame rate and scale of the new motion, then "Choose file…". */
export function ImportOptionsDialog() {
  const req = useStore(importOptionsStore, (s) => s.request);
  const [fps, setFps] = useState('30');
  const [scale, setScale] = useState('1');
  const [bvhPositions, setBvhPositions] = useState<BvhPositionReading>('auto');
  useEffect(() => {
    if (!req) return;
    setFps(String(req.initial.fps));
    setScale(String(req.initial.scale));
    setBvhPositions(req.initial.bvhPositions ?? 'auto');
  }, [req]);
  if (!req) return null;
  const parsed = parseImportOptions(fps, scale);
  return (
    <ChooseFileModal
      title="Import motion (BVH, glTF, FBX)"
      focusKey={req}
      testId="import-options"
      prefix="import"
      error={'error' in parsed ? parsed.error : null}
      onAccept={() => !('error' in parsed) && req.resolve({ ...parsed, bvhPositions })}
      onCancel={() => req.resolve(null)}
    >
      <p>
        The file becomes a new, unsaved motion. Joints keep their names (BVH, glTF: cut to 31 bytes; FBX: refused if
        longer); a file with several clips asks which one. Choose several files to write one .mtn each beside them
        (added to the open project, all or nothing).
      </p>
      <DecimalField
        label="Frame rate"
        testId="import-fps"
        value={fps}
        onChange={setFps}
        hint="fps (MGS2 plays at 30; the source is resampled)"
      />
      <DecimalField
        label="Scale"
        testId="import-scale"
        value={scale}
        onChange={setScale}
        hint="× every position (CMU BVH → cm: 5.644444)"
      />
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
          auto judges each joint; added: to its OFFSET (BVH description); local: its whole position (Blender, LAFAN1).
          Change it when the import&apos;s warning says so.
        </span>
      </label>
    </ChooseFileModal>
  );
}
