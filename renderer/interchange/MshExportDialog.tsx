import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { mshExportOptionsStore, parseMshExportOptions } from './mshExportOptions';
import { ChooseFileModal, DecimalField } from './ChooseFileModal';
import './interchange.css';

/** File > Export MSH: the tolerances of the fit, then "Choose file…" (the .res8; the other two go beside it). */
export function MshExportDialog() {
  const req = useStore(mshExportOptionsStore, (s) => s.request);
  const [position, setPosition] = useState('0.5');
  const [rotation, setRotation] = useState('0.5');
  const [useOverrides, setUseOverrides] = useState(true);
  useEffect(() => {
    if (!req) return;
    setPosition(String(req.initial.positionTolerance));
    setRotation(String(req.initial.rotationToleranceDeg));
    setUseOverrides(req.initial.useJointOverrides);
  }, [req]);
  if (!req) return null;
  const parsed = parseMshExportOptions(position, rotation, req.jointOverrideCount > 0 && useOverrides);
  return (
    <ChooseFileModal
      title="Export MSH animation"
      focusKey={req}
      testId="msh-export-options"
      prefix="msh"
      error={'error' in parsed ? parsed.error : null}
      onAccept={() => !('error' in parsed) && req.resolve(parsed)}
      onCancel={() => req.resolve(null)}
    >
      <p>
        Writes three files with one prefix, all or none: <code>.res8</code> (key pool), <code>.res19</code> (frame map)
        and <code>.nodes.json</code> (per node: name, parent, anim_map_start, fallback_key). Keys sit on whole frames;
        every node keeps its error within the tolerances where float32 / s16 precision allows.
      </p>
      <DecimalField
        label="Position"
        name="Position tolerance"
        testId="msh-pos-tol"
        value={position}
        onChange={setPosition}
        hint="motion units (root translation and joint offsets)"
      />
      <DecimalField
        label="Rotation"
        name="Rotation tolerance"
        testId="msh-rot-tol"
        value={rotation}
        onChange={setRotation}
        hint="degrees"
      />
      {req.jointOverrideCount > 0 && (
        <label className="msh-overrides">
          <input
            type="checkbox"
            checked={useOverrides}
            onChange={(e) => setUseOverrides(e.target.checked)}
            data-testid="msh-use-overrides"
          />
          <span>
            Use the tuning panel's {req.jointOverrideCount} per-joint rotation tolerance
            {req.jointOverrideCount === 1 ? '' : 's'}
          </span>
        </label>
      )}
    </ChooseFileModal>
  );
}
