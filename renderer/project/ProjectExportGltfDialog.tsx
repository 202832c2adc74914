import { useState } from 'react';
import { useStore } from 'zustand';
import type { GltfExportSource } from '../../shared/ipc';
import { ChooseFileModal } from '../interchange/ChooseFileModal';
import { gltfSourceStore, type GltfSourceRequest } from './projectExport';
import { preferencesStore } from '../state/preferencesStore';
import '../interchange/interchange.css';

const CHOICES: readonly { value: GltfExportSource; label: string; hint: string }[] = [
  {
    value: 'source',
    label: 'Source motions',
    hint: "each motion's .mtn as the project reads it, resampled where it says",
  },
  {
    value: 'compressed',
    label: 'Compressed motions',
    hint: 'each compressed with its project settings as Build does, then decoded: what the game plays',
  },
];

/**
 * File › Export All as glTF…: which motion each file holds (the single export offers both too), then "Choose folder…"
 * (the folder to export into).
 */
export function ProjectExportGltfDialog() {
  const req = useStore(gltfSourceStore, (s) => s.request);
  const [picked, setPicked] = useState<{ req: GltfSourceRequest; source: GltfExportSource } | null>(null);
  if (!req) return null;
  // Each Export All starts at the motion a glTF export wrote last (a preference, kept across restarts), the focus on it.
  const source = picked?.req === req ? picked.source : preferencesStore.getState().gltfExportSource;
  const setSource = (s: GltfExportSource) => setPicked({ req, source: s });
  return (
    <ChooseFileModal
      title="Export All as glTF"
      focusKey={req}
      testId="export-all-gltf-options"
      prefix="export-all-gltf"
      error={null}
      choose="folder"
      onAccept={() => req.resolve(source)}
      onCancel={() => req.resolve(null)}
    >
      <p>Writes one .glb per motion and alias of the project into one folder, all of them or none.</p>
      <fieldset className="gltf-source">
        <legend>Motion in each file</legend>
        {CHOICES.map((c) => (
          <label key={c.value}>
            <input
              type="radio"
              name="gltf-source"
              value={c.value}
              checked={source === c.value}
              onChange={() => setSource(c.value)}
              data-autofocus={source === c.value || undefined}
              data-testid={`export-all-gltf-${c.value}`}
            />
            <span>
              {c.label} <span className="dim">({c.hint})</span>
            </span>
          </label>
        ))}
      </fieldset>
    </ChooseFileModal>
  );
}
